import Foundation
import PlayersProtocol
import SyncServer

/// The server's players as its HTTP layer reaches them: the rows of the
/// sync engine's `player` table (``EnginePlayersStore``), in an encrypted
/// file or in PostgreSQL.
///
/// Every change takes the next value of one server-wide counter, which the
/// changed player carries as its `version`; a deleted player leaves a
/// tombstone with the version of its deletion; each call is one
/// transaction. A conforming type never blocks its caller's thread: the
/// HTTP layer calls it from the event loops and Swift's cooperative
/// threads, which must stay free for other requests while it waits for a
/// lock, a disk or a network.
public protocol PlayersStore: Sendable {
    /// The identity of the store's database and the epochs of its history,
    /// read when it opened: every cursor names them.
    var history: ServerHistory { get }

    /// A page of the snapshot: live players in uuid order, after `after`,
    /// at most `limit`, with the counter when the page was read.
    func snapshot(limit: Int, after: UUID?) async throws -> SnapshotPage

    /// The changes after `since`, in version order, at most `limit`; or nil
    /// when `since` is older than the tombstone retention or later than the
    /// counter (the client must take a snapshot).
    func delta(since: Int64, limit: Int) async throws -> DeltaPage?

    /// The player with this uuid, if it is alive.
    func player(_ uuid: UUID) async throws -> ServerPlayer?

    /// Changes a player's name or score, unless its version differs from
    /// `expectedVersion` (the version a client last saw).
    func update(_ uuid: UUID, name: String?, score: Int?, expectedVersion: Int64?) async throws -> PlayerUpdateOutcome

    /// Deletes a player, leaving a tombstone; returns whether it existed.
    func delete(_ uuid: UUID) async throws -> Bool

    /// Applies the changes that a client pushes (`POST /v1/changes`), in
    /// one transaction, and answers one result per change, in order: a
    /// change whose base version is the player's current one is applied,
    /// any other is a conflict that leaves the server's state; a change
    /// whose mutation id was answered before gets that answer again and
    /// changes nothing (Docs/SyncProtocol.md).
    func applyChanges(_ batch: PlayersChangeBatch) async throws -> PlayersChangeResults

    /// Deletes the tombstones older than `retention` at `now`, and the
    /// mutation ids answered before that: cursors older than them get nil
    /// deltas from then on.
    func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws

    /// Inserts `count` random players if there is none, calling
    /// `progress` with the number inserted so far as they go.
    func seed(_ count: Int, progress: @escaping @Sendable (Int) -> Void) async throws

    /// The demo's random changes (`POST /demo/refresh`); returns the
    /// counter after them.
    func refresh() async throws -> Int64

    /// Throws unless the store answers a cheap read (the change counter):
    /// whether this server can serve (`GET /ready`).
    func checkReachable() async throws

    /// Wakes the requests that wait for the counter to move past a version
    /// (long-polls): after each commit through any instance on the same
    /// players, once it is visible to this store's reads.
    var changes: StoreChangeNotifier { get }

    /// Writes everything out and closes the store: later calls throw.
    func close() async throws
}

extension PlayersStore {
    /// Inserts `count` random players if there is none, silently.
    public func seed(_ count: Int) async throws {
        try await seed(count) { _ in }
    }
}
