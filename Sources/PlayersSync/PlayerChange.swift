import Foundation
import PlayersProtocol

/// The last state of a player in a fetch.
enum PlayerChange {
    case player(PlayersPayload.PlayerEntry)
    case tombstone(PlayersPayload.Tombstone)

    var uuid: UUID {
        switch self {
        case .player(let player): return player.uuid
        case .tombstone(let tombstone): return tombstone.uuid
        }
    }

    var version: Int64 {
        switch self {
        // Validated: a server's player always has a version.
        case .player(let player): return player.version ?? 0
        case .tombstone(let tombstone): return tombstone.version
        }
    }
}
