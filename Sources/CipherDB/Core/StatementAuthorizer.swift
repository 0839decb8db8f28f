import CSQLCipher
import Foundation

/// What SQLite's authorizer reports while a statement is prepared: the
/// region it reads, the tables it writes and the columns it updates.
///
/// See <https://www.sqlite.org/c3ref/set_authorizer.html>.
final class StatementAuthorizer {
    var selectedRegion = DatabaseRegion()
    /// Updated column names, per lowercased table name.
    var updatedColumns: [String: Set<String>] = [:]
    /// The lowercased names of the tables it inserts into, updates or
    /// deletes from, its triggers' included.
    var modifiedTables: Set<String> = []
    /// What the statement does to the transaction, if it begins, ends,
    /// or rolls back a transaction or a savepoint.
    var transactionEffect: TransactionEffect?
    /// Whether the statement changes the schema of the connection: it
    /// creates, drops or alters a schema object, or attaches or detaches a
    /// database.
    var changesSchema = false

    func authorize(action: CInt, first: UnsafePointer<CChar>?, second: UnsafePointer<CChar>?) {
        switch action {
        case SQLITE_READ:
            guard let first else { return }
            let table = String(cString: first)
            let column = second.map { String(cString: $0) } ?? ""
            // An empty column name reads the table as a whole (COUNT(*)).
            selectedRegion.formUnion(column.isEmpty
                ? DatabaseRegion(table: table)
                : DatabaseRegion(table: table, columns: [column]))
        case SQLITE_UPDATE:
            guard let first, let second else { return }
            let table = String(cString: first).lowercased()
            updatedColumns[table, default: []].insert(String(cString: second))
            modifiedTables.insert(table)
        case SQLITE_INSERT, SQLITE_DELETE:
            guard let first else { return }
            modifiedTables.insert(String(cString: first).lowercased())
        case SQLITE_TRANSACTION:
            guard let first else { return }
            transactionEffect = TransactionEffect(transactionOperation: String(cString: first))
        case SQLITE_SAVEPOINT:
            guard let first, let second else { return }
            transactionEffect = TransactionEffect(savepointOperation: String(cString: first), name: String(cString: second))
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
             SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW,
             SQLITE_CREATE_VTABLE,
             SQLITE_DROP_INDEX, SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE,
             SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW,
             SQLITE_DROP_VTABLE,
             SQLITE_ALTER_TABLE, SQLITE_ATTACH, SQLITE_DETACH:
            changesSchema = true
        default:
            break
        }
    }
}

/// What a statement does to the transaction: `BEGIN`, `COMMIT`,
/// `ROLLBACK`, `SAVEPOINT`, `RELEASE` and `ROLLBACK TO`.
enum TransactionEffect: Equatable {
    case beginTransaction
    case commitTransaction
    case rollbackTransaction
    /// Savepoint names are compared without case, as SQLite does: they
    /// are kept lowercased.
    case beginSavepoint(String)
    case releaseSavepoint(String)
    case rollbackToSavepoint(String)

    /// The effect of an `SQLITE_TRANSACTION` action, whose operation is
    /// `BEGIN`, `COMMIT` (also for `END`) or `ROLLBACK`.
    init?(transactionOperation operation: String) {
        switch operation {
        case "BEGIN": self = .beginTransaction
        case "COMMIT": self = .commitTransaction
        case "ROLLBACK": self = .rollbackTransaction
        default: return nil
        }
    }

    /// The effect of an `SQLITE_SAVEPOINT` action, whose operation is
    /// `BEGIN`, `RELEASE` or `ROLLBACK`.
    init?(savepointOperation operation: String, name: String) {
        switch operation {
        case "BEGIN": self = .beginSavepoint(name.lowercased())
        case "RELEASE": self = .releaseSavepoint(name.lowercased())
        case "ROLLBACK": self = .rollbackToSavepoint(name.lowercased())
        default: return nil
        }
    }
}

extension Database {
    /// Installs the authorizer, for the life of the connection.
    func installAuthorizer() {
        sqlite3_set_authorizer(handle, { context, action, first, second, _, _ in
            let db = Unmanaged<Database>.fromOpaque(context!).takeUnretainedValue()
            // Recorded first: a deletion that is ignored below still
            // deletes, and the statement says it writes its table.
            db.currentAuthorizer?.authorize(action: action, first: first, second: second)
            // Deleting all rows of a table with the truncate optimization
            // would skip the update hook, and observers would miss the
            // deletion: SQLITE_IGNORE disables the optimization (the rows
            // are still deleted). Internal tables (DROP TABLE edits
            // sqlite_master) are left alone.
            switch action {
            case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_VTABLE:
                // A DROP deletes the rows of the table: IGNORE would cancel it.
                db.isPreparingDrop = true
            case SQLITE_DELETE:
                if !db.isPreparingDrop, let first, strncmp(first, "sqlite_", 7) != 0 {
                    return SQLITE_IGNORE
                }
            default:
                break
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
