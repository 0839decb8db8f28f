import Foundation
import SyncSchema

/// The rows of an app's declared tables as the server's HTTP layer
/// reaches them: the embedded store or PostgreSQL's, which only read and
/// write rows and follow the rules written once here (``SyncChangeReads``,
/// ``SyncChangePlan``), and the keys of end-to-end tables beside them
/// (``SyncKeyDirectory``). A conforming type never blocks its caller's
/// thread.
///
/// ```swift
/// let results = try await store.applyChanges(batch.changes, at: Date())   // apply(SyncWrite(batch.changes), at:)
/// let page = try await store.changes(after: cursor.counter, limit: 1_000)
/// ```
public protocol SyncRowStore: SyncKeyDirectory {
    /// The declaration of the tables it serves.
    var schema: SyncSchema { get }
    /// The identity of the store's database and the epochs of its history,
    /// read when it opened: every cursor names them.
    var history: ServerHistory { get }
    /// Wakes the long-polls waiting for a change after a version: told of
    /// every commit that moves the counter, through any instance.
    var changes: StoreChangeNotifier { get }

    /// Applies a write in one transaction; one answer per change, or nil
    /// when the table it requires empty has rows. Throws
    /// ``SyncChangeError`` when the batch is refused; either way it then
    /// changes nothing.
    func apply(_ write: SyncWrite, at date: Date) async throws -> [SyncPushResult]?

    /// The rows changed after `version` (of the tables of `filter`, or of
    /// every table when nil) that `user` reads (every one when nil: the
    /// read filter of ``SyncRights/reads(_:in:)``, carried out in the
    /// store's query), live rows and tombstones, in version order, at most
    /// `limit`; nil when `version` is older than the floor or later than
    /// the counter (``SyncCounter/answersDelta(after:)``), or when the
    /// user's memberships changed after it: the client must take a
    /// snapshot. With the counter and the user's digests.
    func changes(after version: Int64, limit: Int, tables filter: SyncTableFilter?, for user: SyncUser?) async throws -> SyncStoredPage?

    /// A page of the snapshot: live rows (of the tables of `filter`, or of
    /// every table when nil) that `user` reads (every one when nil), in
    /// key order (table, then id), after `key`
    /// (``SyncTableFilter/snapshotSteps(after:)``), at most `limit`, with
    /// the counter and the user's digests.
    func snapshot(after key: SyncRowKey?, limit: Int, tables filter: SyncTableFilter?, for user: SyncUser?) async throws -> SyncStoredPage

    /// The row of `key`, live or deleted, whoever reads it: ask
    /// ``rights(of:)`` before serving it to a user.
    func row(_ key: SyncRowKey) async throws -> SyncStoredRow?

    /// What `user` may read and write, as the grants stand.
    func rights(of user: SyncUser) async throws -> SyncRights

    /// The counter: the version of the last change.
    func currentVersion() async throws -> Int64

    /// Deletes the tombstones older than `retention` at `now`, and the
    /// answers given before then; a delta after a version older than the
    /// newest tombstone purged is refused from then on (``SyncPurge``).
    func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws

    /// Closes the store: later calls throw.
    func close() async throws
}

extension SyncRowStore {
    /// Applies a device's pushed changes in one transaction, keeping the
    /// answers for its retries; one answer per change. Throws
    /// ``SyncChangeError`` when the batch is refused, and then changes
    /// nothing.
    public func applyChanges(_ changes: [SyncChange], at date: Date) async throws -> [SyncPushResult] {
        // Without a table required empty, a write always has answers.
        try await apply(SyncWrite(changes), at: date) ?? []
    }

    /// The rows of every table changed after `version`.
    public func changes(after version: Int64, limit: Int) async throws -> SyncStoredPage? {
        try await changes(after: version, limit: limit, tables: nil, for: nil)
    }

    /// The rows of the tables of `filter` changed after `version`, whoever reads them.
    public func changes(after version: Int64, limit: Int, tables filter: SyncTableFilter?) async throws -> SyncStoredPage? {
        try await changes(after: version, limit: limit, tables: filter, for: nil)
    }

    /// A page of the snapshot of every table.
    public func snapshot(after key: SyncRowKey?, limit: Int) async throws -> SyncStoredPage {
        try await snapshot(after: key, limit: limit, tables: nil, for: nil)
    }

    /// A page of the snapshot of the tables of `filter`, whoever reads them.
    public func snapshot(after key: SyncRowKey?, limit: Int, tables filter: SyncTableFilter?) async throws -> SyncStoredPage {
        try await snapshot(after: key, limit: limit, tables: filter, for: nil)
    }
}

/// Rows a store read, with its counter and, when it read fewer rows than
/// asked (its caller, which asks for one row more than a page holds, then
/// makes the last page: the one that carries them), the digests of the
/// declared tables. A full read costs no digest's read.
public struct SyncStoredPage: Sendable, Equatable {
    public var rows: [SyncStoredRow]
    public var counter: Int64
    /// The digest of each declared table's live rows at `counter`, in
    /// table order, when the read held fewer rows than asked (else none);
    /// a table whose digest another declaration made (an instance of
    /// another version on the same database) has none.
    public var digests: [SyncTableDigest]

    public init(rows: [SyncStoredRow], counter: Int64, digests: [SyncTableDigest] = []) {
        self.rows = rows
        self.counter = counter
        self.digests = digests
    }

    /// The digests of the tables of `filter` (of every table when nil).
    public func digests(of filter: SyncTableFilter?) -> [SyncTableDigest] {
        filter.map { filter in digests.filter { filter.contains($0.table) } } ?? digests
    }
}
