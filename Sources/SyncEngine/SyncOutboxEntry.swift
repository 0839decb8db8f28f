import CipherDB
import Foundation
import SyncSchema

/// A local change of a synced row that the server has not acknowledged
/// yet: a row of the outbox, `sync_outbox`, which the triggers of the
/// declared tables write (``CipherDB/Database/installSyncEngine(for:)``).
///
/// ```swift
/// let pending = try dbQueue.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
/// pending.first?.changedColumns   // ["title"]
/// ```
public struct SyncOutboxEntry: Equatable, Sendable, FetchableRecord, TableRecord {
    public static let databaseTableName = SyncEngine.outboxTable

    public typealias Operation = SyncChange.Operation

    /// The push order.
    public var id: Int64
    /// Random, made with the entry and the same on every retry: the server
    /// applies an entry once.
    public var mutationID: UUID
    public var table: String
    /// The row's primary key.
    public var rowID: UUID
    public var operation: Operation
    /// The columns the change touched, in the order they were first
    /// touched (every column for an insert, none for a delete).
    public var changedColumns: [String]
    /// The server's version of the row when the change was made; nil for
    /// a row the server never sent.
    public var baseVersion: Int64?
    public var createdAt: Date
    /// When the entry was first sent; nil until then.
    public var sentAt: Date?

    public init(row: Row) throws {
        id = row["id"]
        let mutation: Data = row["mutation_id"]
        guard mutation.count == 16 else { throw SyncOutboxEntryError(entry: row["id"], problem: "its mutation id is not 16 bytes") }
        mutationID = mutation.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        table = row["table_name"]
        guard let rowID = UUID.fromDatabaseValue(row["row_id"]) else {
            throw SyncOutboxEntryError(entry: row["id"], problem: "its row id is not a UUID")
        }
        self.rowID = rowID
        let operation: String = row["operation"]
        guard let known = Operation(rawValue: operation) else {
            throw SyncOutboxEntryError(entry: row["id"], problem: "its operation \(operation.debugDescription) is unknown")
        }
        self.operation = known
        let columns: String = row["changed_columns"]
        changedColumns = columns.split(separator: ",").map(String.init)
        baseVersion = row["base_version"]
        createdAt = Date(timeIntervalSince1970: row["created_at"])
        sentAt = (row["sent_at"] as Double?).map(Date.init(timeIntervalSince1970:))
    }

    /// `columns` as `changed_columns` stores them: each name followed by a
    /// comma (`score,name,`), which the triggers extend and test with
    /// `instr`.
    public static func storedColumns(_ columns: [String]) -> String {
        columns.map { "\($0)," }.joined()
    }

    /// The entries in the order they are pushed.
    public static func inPushOrder() -> QueryInterfaceRequest<SyncOutboxEntry> {
        all().order(Column("id"))
    }
}

/// An outbox entry that this program cannot read: written by another
/// program, or damaged.
public struct SyncOutboxEntryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var entry: Int64
    public var problem: String

    public var description: String { "the sync outbox's entry \(entry) cannot be read: \(problem)" }
}
