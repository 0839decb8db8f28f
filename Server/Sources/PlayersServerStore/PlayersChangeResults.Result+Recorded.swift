import Foundation
import PlayersProtocol

extension PlayersChangeResults.Result {
    /// The answer to an applied change that gave the player (or its
    /// tombstone) `version`.
    public static func applied(_ change: PlayersChangeBatch.Change, version: Int64?) -> Self {
        .init(mutationID: change.mutationID, status: .applied, version: version)
    }
}
