import Foundation

extension PlayersPayload {
    /// Checks what the decoder does not, in a server's message: names and
    /// scores (``PlayerValidator``, the rule of the command line and the
    /// server), versions present and positive, no uuid twice among the
    /// players and tombstones. The versions' bounds are checked against the
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
    }

    /// The server's change counter that a cursor stands for: a cursor of
    /// this protocol is its decimal digits.
    ///
    /// ```swift
    /// try PlayersPayload.cursorPosition("42") // 42
    /// ```
    public static func cursorPosition(_ cursor: String) throws(PlayersPayloadError) -> Int64 {
        guard cursor.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let position = Int64(cursor) else {
            throw PlayersPayloadError(path: "$.cursor", "not a cursor of this protocol")
        }
        return position
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
