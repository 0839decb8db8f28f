import CipherSync
import Foundation

extension PlayersPayload: SyncMessage {
    /// Decodes a page that a server sent, and checks it: protocol version,
    /// types, UUIDs, names (not empty, at most ``Player/maximumNameLength``
    /// characters), scores in ``Player/scoreRange``, positive versions, no
    /// uuid twice among the players. Throws ``SyncPayloadError`` naming
    /// the first bad element by its JSON path.
    public static func decodePage(_ data: Data) throws -> PlayersPayload {
        let payload = try decodeVersioned(data)
        try payload.validate()
        return payload
    }

    /// The rules a decoder does not check.
    func validate() throws {
        var seen = Set<UUID>()
        seen.reserveCapacity(players.count)
        for (index, player) in players.enumerated() {
            // Made only for an error: interpolating it for every player
            // was a good part of checking a snapshot.
            var path: String { "$.players[\(index)]" }
            let name = Player.normalizedName(player.name)
            guard !name.isEmpty else { throw SyncPayloadError(path: "\(path).name", "empty") }
            // No more bytes than the limit: no more characters either.
            guard name.utf8.count <= Player.maximumNameLength || name.count <= Player.maximumNameLength else {
                throw SyncPayloadError(path: "\(path).name", "longer than \(Player.maximumNameLength) characters")
            }
            guard Player.scoreRange.contains(player.score) else {
                throw SyncPayloadError(path: "\(path).score", "\(player.score) is outside \(Player.scoreRange.lowerBound)…\(Player.scoreRange.upperBound)")
            }
            guard let version = player.version else { throw SyncPayloadError(path: "\(path).version", "missing") }
            guard version > 0 else { throw SyncPayloadError(path: "\(path).version", "not positive") }
            guard seen.insert(player.uuid).inserted else {
                throw SyncPayloadError(path: "\(path).uuid", "\(player.uuid.uuidString) appears twice")
            }
        }
        for (index, tombstone) in tombstones.enumerated() where tombstone.version <= 0 {
            throw SyncPayloadError(path: "$.tombstones[\(index)].version", "not positive")
        }
    }

    public var isSnapshot: Bool { kind == .snapshot }
    public var isComplete: Bool { complete }
}
