import Foundation
import SyncSchema

/// The history of an app's earlier store of its rows, which the engine's
/// store takes as its own when it first opens a database that holds one:
/// Players' tables before the engine (`PlayersServerAdoption`). The
/// clients' cursors name this history, so they stay valid.
///
/// A store that already has rows of its own moves them after the adopted
/// counter; its own history is then gone, and its clients, whose cursors
/// name it, are told of another server.
public struct SyncAdoptedHistory: Sendable, Equatable {
    /// The identity of the earlier store's database.
    public var server: UUID
    /// Its epochs, oldest first.
    public var epochs: [SyncEpoch]
    /// Its counter, and the oldest version a delta can start after.
    public var counter: Int64
    public var floor: Int64
    /// Whether the database is a restored copy whose new epoch has not
    /// begun yet: the engine's store begins it when it opens.
    public var isRestored: Bool

    public init(server: UUID, epochs: [SyncEpoch], counter: Int64, floor: Int64, isRestored: Bool) {
        self.server = server
        self.epochs = epochs
        self.counter = counter
        self.floor = floor
        self.isRestored = isRestored
    }
}
