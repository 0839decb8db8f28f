import CipherSync
import Foundation

extension PlayersPayload: SyncMessage {
    /// Decodes a page that a server sent, and checks it: protocol version,
    /// types, UUIDs, names and scores (``PlayerValidator``, the rule of the
    /// command line and the server), positive versions, no uuid twice
    /// among the players. Throws ``SyncPayloadError`` naming
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
            do {
                _ = try PlayerValidator.validName(player.name)
                try PlayerValidator.validateScore(player.score)
            } catch {
                throw SyncPayloadError(path: "\(path).\(error.field)", error.problem)
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
