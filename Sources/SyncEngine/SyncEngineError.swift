import Foundation
import SyncSchema

/// Why the sync engine cannot be installed in a database, or cannot do
/// what was asked: by case, for callers that tell them apart, with one
/// sentence that says what to change.
public enum SyncEngineError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A declared table that the database does not have.
    case missingTable(String)
    /// Another identity than the one the device keeps: a device is one
    /// user's.
    case otherIdentity
    /// Another key at a partition and epoch whose key the device keeps.
    case otherPartitionKey(partition: String, epoch: UInt32)
    /// A table declared end-to-end, synced by a store without the sealing
    /// of such tables (Docs/EndToEnd.md): rather than sync it in the
    /// clear, the sync stops before it sends or merges anything.
    case endToEndWithoutSealing(String)
    /// A declared column that the database's table does not have.
    case missingColumn(table: String, column: String)
    /// A declared column whose SQL type would change the values it stores
    /// (``SyncColumnAffinity``): text kept as a number, a number as text.
    case columnTypeMismatch(table: String, column: String, declared: SyncColumnType, sqlType: String)
    /// A column that the declaration leaves optional and the table
    /// declares `NOT NULL`: a server's row without a value could not be
    /// merged.
    case columnRequiresValue(table: String, column: String)
    /// An outbox entry of a table that the declaration does not sync.
    case undeclaredTable(String)
    /// An outbox entry never sent whose row is no longer there.
    case rowGone(table: String, id: UUID)
    /// A merge that would leave a row referencing a row that does not
    /// exist: `id` is the row's primary key, when it can be read.
    case foreignKeyViolation(table: String, id: String?, parent: String)
    /// A change of the outbox's triggers outside a transaction, where
    /// another connection could write between its statements.
    case notInTransaction(String)
    /// A conflict's local row, kept, that refers to a `parent` row which
    /// is no longer there: it cannot come back.
    case referencedRowGone(table: String, id: UUID, parent: String)
    /// A row to push that its declaration refuses (written around the
    /// app's checks: by SQL, by an older version): no push can take it
    /// until it is changed or deleted.
    case rowBreaksDeclaration(table: String, id: UUID, SyncRowError)

    public var description: String {
        switch self {
        case .missingTable(let table):
            "the database has no table \(table), which the declaration syncs: create it in a migration before the sync engine's"
        case .otherIdentity:
            "this database keeps another identity, and a device is one user's: use a new database for another identity"
        case .otherPartitionKey(let partition, let epoch):
            "this database keeps another key of epoch \(epoch) of \(partition), and an epoch's key never changes: nothing was saved"
        case .endToEndWithoutSealing(let table):
            "the table \(table) is declared end-to-end, and this sync has nothing to seal its rows with: "
                + "give its store a SyncEndToEndSealer (module SyncEndToEnd, Docs/EndToEnd.md); nothing was sent or merged"
        case .missingColumn(let table, let column):
            "the table \(table) has no column \(column), which the declaration syncs: add it in a migration before the sync engine's"
        case .columnTypeMismatch(let table, let column, let declared, let sqlType):
            "the column \(table).\(column) is declared \(declared.rawValue), but the table stores it as \(sqlType.isEmpty ? "untyped" : sqlType), "
                + "which would change its values: make it \(SyncColumnAffinity.sqlType(for: declared)) in a migration before the sync engine's"
        case .columnRequiresValue(let table, let column):
            "the column \(table).\(column) is optional in the declaration, but the table declares it NOT NULL, so a row of the server "
                + "without it could not be merged: declare it required, or drop NOT NULL in a migration before the sync engine's"
        case .undeclaredTable(let table):
            "the sync outbox holds a change of the table \(table), which the declaration does not sync: install the declaration that has it"
        case .rowGone(let table, let id):
            "the sync outbox holds a change of the \(table) row \(id.uuidString), which is gone: its delete should have replaced it"
        case .foreignKeyViolation(let table, let id, let parent):
            "the merge would leave the \(table) row \(id ?? "(unknown)") referencing a \(parent) row that does not exist: nothing was merged"
        case .notInTransaction(let what):
            "\(what) needs a transaction: run it inside DatabaseWriter.write or Database.inTransaction"
        case .rowBreaksDeclaration(let table, let id, let error):
            "the \(table) row \(id.uuidString) breaks the declaration (\(error.problemDescription)): nothing was pushed; "
                + "change the row or delete it, then sync again"
        case .referencedRowGone(let table, let id, let parent):
            "the \(table) row \(id.uuidString) refers to a \(parent) row that is deleted, so it cannot come back: keep the server's state instead, or bring that \(parent) row back first"
        }
    }
}
