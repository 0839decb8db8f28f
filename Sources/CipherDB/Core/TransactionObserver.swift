/// A type that is notified of the changes of a database and of its
/// transactions.
///
/// ```swift
/// final class PlayerChangeCounter: TransactionObserver {
///     var count = 0
///     func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
///         eventKind.tableName == "player"
///     }
///     func databaseDidChange(with event: DatabaseEvent) { count += 1 }
///     func databaseDidCommit(_ db: Database) { print("\(count) changes") }
///     func databaseDidRollback(_ db: Database) { count = 0 }
/// }
/// try dbQueue.write { db in db.add(transactionObserver: counter) }
/// ```
///
/// Callbacks run on the connection's queue, inside the write access.
///
/// See <https://www.sqlite.org/c3ref/update_hook.html> and
/// <https://www.sqlite.org/c3ref/commit_hook.html>.
public protocol TransactionObserver: AnyObject {
    /// Whether the observer wants events of this kind (asked before each
    /// statement that may produce them).
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// The database may have changed in a way SQLite does not report:
    /// ``Database/notifyChanges(in:)`` was called for a region the
    /// observer observes. Does nothing by default.
    func databaseDidChange()

    /// A row was inserted, updated or deleted.
    func databaseDidChange(with event: DatabaseEvent)

    /// The transaction is about to commit. Throwing rolls it back.
    func databaseWillCommit() throws

    /// The transaction was committed.
    func databaseDidCommit(_ db: Database)

    /// The transaction was rolled back.
    func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
    public func databaseWillCommit() throws {}

    public func databaseDidChange() {}

    /// Stops sending `databaseDidChange(with:)` events to the observer
    /// until the current transaction ends. Call it from the callbacks.
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        Database.current?.observationBroker.stopObservingUntilNextTransaction(self)
    }
}

extension Database {
    /// How long a database keeps an observer.
    public enum TransactionObservationExtent: Sendable {
        /// As long as the observer is alive (the database holds it weakly).
        case observerLifetime
        /// Until the end of the next transaction (held strongly until then).
        case nextTransaction
        /// As long as the database connection (held strongly).
        case databaseLifetime
    }
}

/// The kind of a change, as observers are asked about it.
public enum DatabaseEventKind: Sendable, Hashable {
    case insert(tableName: String)
    case delete(tableName: String)
    /// An update of some columns.
    case update(tableName: String, columnNames: Set<String>)

    /// The changed table.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _):
            return tableName
        }
    }
}

/// A change of one row.
public struct DatabaseEvent: Sendable, Hashable {
    public enum Kind: Int32, Sendable {
        case insert = 18 // SQLITE_INSERT
        case delete = 9  // SQLITE_DELETE
        case update = 23 // SQLITE_UPDATE
    }

    public let kind: Kind
    public let databaseName: String
    public let tableName: String
    public let rowID: Int64

    /// The event, to keep after the callback that received it. (An event
    /// is a value: the copy is the event itself.)
    public func copy() -> DatabaseEvent {
        self
    }
}
