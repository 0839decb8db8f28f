import Foundation
import SyncSchema

/// The history of an app's earlier store of its rows, which the engine's
/// store takes as its own when it first opens a database that holds one
/// (``SyncAdoption``): Players' tables before the engine
/// (`PlayersServerAdoption`). The clients' cursors name this history, so
/// they stay valid.
public struct SyncAdoptedHistory: Sendable, Equatable {
    /// The identity of the earlier store's database.
    public var server: UUID
    /// Its epochs, oldest first.
    public var epochs: [SyncEpoch]
    /// Its counter, and the oldest version a delta can start after.
    public var counter: SyncCounter
    /// Whether the database is a restored copy whose new epoch has not
    /// begun yet: the engine's store begins it when it opens.
    public var isRestored: Bool

    public init(server: UUID, epochs: [SyncEpoch], counter: SyncCounter, isRestored: Bool) {
        self.server = server
        self.epochs = epochs
        self.counter = counter
        self.isRestored = isRestored
    }
}
