import Foundation

extension PlayersPayload {
    /// Checks what the decoder does not, in a server's message: names and
    /// scores (``PlayerValidator``, the rule of the command line and the
    /// server), versions present and positive, no uuid twice among the
    /// players. Throws for the first bad element, by its JSON path.
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
        for (index, tombstone) in tombstones.enumerated() where tombstone.version <= 0 {
            throw PlayersPayloadError(path: "$.tombstones[\(index)].version", "not positive")
        }
    }
}
