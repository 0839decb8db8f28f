import CipherDB
import SyncServer

/// Publishes a store's change counter to its ``SyncServer/StoreChangeNotifier``
/// after each commit that moved it, whichever call made the change: the
/// waiting long-polls wake only once the change is durable and visible to
/// readers. The players' store and the engine's each have one, on their
/// own counter table.
///
/// ```swift
/// let observer = CounterCommitObserver(counterTable: "sync_server_counter", notifier: changes) { db in
///     try Int64.fetchOne(db, sql: "SELECT value FROM sync_server_counter")
/// }
/// writer.add(transactionObserver: observer)   // held weakly: keep the observer
/// ```
public final class CounterCommitObserver: TransactionObserver, @unchecked Sendable {
    // @unchecked Sendable: `counterChanged` and `scopeOfCommit` are only
    // touched by the callbacks and by the writes of the writer connection
    // (the store's transaction sets the scope), which run on that
    // connection's queue, one at a time; the other properties are
    // constants of Sendable types.
    private let counterTable: String
    private let notifier: StoreChangeNotifier
    private let readCounter: @Sendable (Database) throws -> Int64?
    private var counterChanged = false
    /// The scope of the transaction's changes, when the store's write
    /// gave it before the commit (``StoreChangeScope``); nil: unknown.
    public var scopeOfCommit: StoreChangeScope?

    /// `readCounter` reads the counter in the committed transaction's
    /// connection.
    public init(counterTable: String, notifier: StoreChangeNotifier, readCounter: @escaping @Sendable (Database) throws -> Int64?) {
        self.counterTable = counterTable
        self.notifier = notifier
        self.readCounter = readCounter
    }

    public func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == counterTable
    }

    public func databaseDidChange(with event: DatabaseEvent) {
        counterChanged = true
    }

    public func databaseDidCommit(_ db: Database) {
        let scope = scopeOfCommit
        scopeOfCommit = nil
        guard counterChanged else { return }
        counterChanged = false
        if let counter = try? readCounter(db) {
            notifier.publish(counter, scope: scope)
        }
    }

    public func databaseDidRollback(_ db: Database) {
        counterChanged = false
        scopeOfCommit = nil
    }
}
