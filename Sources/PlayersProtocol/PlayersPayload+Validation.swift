import Foundation

extension PlayersPayload {
    /// Checks what the decoder does not, in a server's message: names and
    /// scores (``PlayerValidator``, the rule of the command line and the
    /// server), versions present and positive, no uuid twice among the
    /// players and tombstones, a well-formed digest on a complete page
    /// only. The versions' bounds are checked against the
    /// page's cursors (``validateVersions(above:atMost:)``). Throws for the first bad element, by its JSON path.
    ///
    /// Exports are not checked this way: a player that an older version
    /// accepted is exported as it is stored.
    ///
    /// ```swift
    /// let page = try PlayersPayload.decode(data)
    /// try page.validate()
    /// ```
    public func validate() throws(PlayersPayloadError) {
        var seen = Set<UUID>()
        seen.reserveCapacity(players.count)
        for (index, player) in players.enumerated() {
            // Made only for an error: interpolating it for every player
            // was a good part of checking a snapshot.
            var path: String { "$.players[\(index)]" }
            do {
                _ = try PlayerValidator.validPlayer(name: player.name, score: player.score)
            } catch {
                throw PlayersPayloadError(path: "\(path).\(error.field)", error.problem)
            }
            guard let version = player.version else { throw PlayersPayloadError(path: "\(path).version", "missing") }
            guard version > 0 else { throw PlayersPayloadError(path: "\(path).version", "not positive") }
            guard seen.insert(player.uuid).inserted else {
                throw PlayersPayloadError(path: "\(path).uuid", "\(player.uuid.uuidString) appears twice")
            }
        }
        for (index, tombstone) in tombstones.enumerated() {
            guard tombstone.version > 0 else { throw PlayersPayloadError(path: "$.tombstones[\(index)].version", "not positive") }
            guard seen.insert(tombstone.uuid).inserted else {
                throw PlayersPayloadError(path: "$.tombstones[\(index)].uuid", "\(tombstone.uuid.uuidString) appears twice")
            }
        }
        if let digest {
            guard complete else { throw PlayersPayloadError(path: "$.digest", "on a page that is not complete") }
            guard digest.players >= 0 else { throw PlayersPayloadError(path: "$.digest.players", "negative") }
            guard digest.checksumValue != nil else {
                throw PlayersPayloadError(path: "$.digest.checksum", "not 16 lowercase hexadecimal digits")
            }
        }
    }

    /// Checks the history that a server's page names: a cursor of this
    /// protocol (``PlayersCursor``), and its `epochs` if any: each once,
    /// starting at 0 and in order, the last being the cursor's and starting
    /// at most at its counter. A page without a cursor is left to the
    /// client's check, which names it. (A snapshot without `epochs` is
    /// read: a client that finds the history went back then keeps every
    /// value that differs as a conflict, Docs/Sync.md.)
    public func validateHistory() throws(PlayersPayloadError) {
        guard let cursor else { return }
        let position = try PlayersCursor(cursor)
        guard let epochs else { return }
        var seen = Set<String>()
        for (index, entry) in epochs.enumerated() {
            let path = "$.epochs[\(index)]"
            guard PlayersCursor.isEpoch(entry.epoch[...]), seen.insert(entry.epoch).inserted else {
                throw PlayersPayloadError(path: "\(path).epoch", "not an epoch, or one listed twice")
            }
            let lowest = index == 0 ? 0 : epochs[index - 1].start
            guard index == 0 ? entry.start == 0 : entry.start >= lowest, entry.start <= position.counter else {
                throw PlayersPayloadError(path: "\(path).start", "out of order")
            }
        }
        guard epochs.last?.epoch == position.epoch else {
            throw PlayersPayloadError(path: "$.epochs", "does not end with the cursor's epoch \(position.epoch)")
        }
    }

    /// Throws unless every version of the message is above `lower` and at
    /// most `upper`, naming the first other one by its JSON path. A
    /// server's page holds the changes between two of its cursors, so no
    /// version beyond them: one forged upward would stay for ever, as no
    /// lower version replaces it.
    public func validateVersions(above lower: Int64?, atMost upper: Int64) throws(PlayersPayloadError) {
        func check(_ version: Int64?, _ path: @autoclosure () -> String) throws(PlayersPayloadError) {
            guard let version else { return }
            if version > upper {
                throw PlayersPayloadError(path: path(), "\(version) is above the page's cursor \(upper)")
            }
            if let lower, version <= lower {
                throw PlayersPayloadError(path: path(), "\(version) is not after the cursor \(lower) that the page continues from")
            }
        }
        for (index, player) in players.enumerated() {
            try check(player.version, "$.players[\(index)].version")
        }
        for (index, tombstone) in tombstones.enumerated() {
            try check(tombstone.version, "$.tombstones[\(index)].version")
        }
    }
}
