import Foundation
import PlayersProtocol

/// A live player on the server.
public struct ServerPlayer: Codable, Equatable, Sendable {
    public var uuid: UUID
    public var name: String
    public var score: Int
    public var version: Int64

    public init(uuid: UUID, name: String, score: Int, version: Int64) {
        self.uuid = uuid
        self.name = name
        self.score = score
        self.version = version
    }

    /// The player as the sync protocol sends it.
    public var entry: PlayersPayload.PlayerEntry {
        PlayersPayload.PlayerEntry(uuid: uuid, name: name, score: score, version: version)
    }
}
