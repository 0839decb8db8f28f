import CSQLCipher
import Dispatch

/// Dispatches the update, commit and rollback hooks of a connection to its
/// transaction observers. SQLite's hooks are installed only while there are
/// observers, so that a connection without observers pays nothing.
///
/// Changes made inside a savepoint are held until the savepoint is
/// released by the transaction, and dropped when it is rolled back: an
/// observer never hears of a change that was undone (GRDB's rule).
///
/// See <https://www.sqlite.org/c3ref/update_hook.html>.
final class DatabaseObservationBroker {
    private struct Entry {
        weak var weakObserver: (any TransactionObserver)?
        var strongObserver: (any TransactionObserver)?
        let extent: Database.TransactionObservationExtent
        var isPaused = false

        var observer: (any TransactionObserver)? { strongObserver ?? weakObserver }
    }

    private enum TransactionEnd {
        case commit
        case rollback
        /// An observer's `databaseWillCommit()` threw: SQLite rolls back.
        case cancelledCommit(any Error)
    }

    private unowned let db: Database
    private var entries: [Entry] = []
    private var pendingTransactionEnd: TransactionEnd?
    /// The observers of each event kind, for the running statement.
    private var observersByKind: [DatabaseEventKind: [ObjectIdentifier]] = [:]
    /// The columns that the running statement updates, per lowercased table.
    private var updatedColumns: [String: Set<String>] = [:]
    /// The lowercased tables the running statement said it writes.
    private var advertisedTables: Set<String> = []
    private var hooksInstalled = false
    /// The open savepoints, outermost first, each with the number of
    /// held events when it began.
    private var savepoints: [(name: String, heldEventCount: Int)] = []
    /// The changes made inside the open savepoints, with the observers
    /// they concern.
    private var heldEvents: [(event: DatabaseEvent, observers: [ObjectIdentifier])] = []

    init(_ db: Database) {
        self.db = db
    }

    var hasObservers: Bool { !entries.isEmpty }

    // MARK: - Registration

    func add(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
        var entry = Entry(extent: extent)
        switch extent {
        case .observerLifetime: entry.weakObserver = observer
        case .nextTransaction, .databaseLifetime: entry.strongObserver = observer
        }
        entries.append(entry)
        installHooksIfNeeded()
    }

    func remove(_ observer: some TransactionObserver) {
        entries.removeAll { $0.observer === observer || $0.observer == nil }
        uninstallHooksIfNeeded()
    }

    func stopObservingUntilNextTransaction(_ observer: some TransactionObserver) {
        for index in entries.indices where entries[index].observer === observer {
            entries[index].isPaused = true
        }
    }

    /// Tells the observers of any of these kinds of events that the
    /// database changed.
    func notifyChanges(withEventsOfKind eventKinds: [DatabaseEventKind]) {
        for entry in entries where !entry.isPaused {
            guard let observer = entry.observer else { continue }
            if eventKinds.contains(where: observer.observes(eventsOfKind:)) {
                observer.databaseDidChange()
            }
        }
    }

    // MARK: - Statements

    /// Called before a statement runs, with the columns it updates.
    func statementWillExecute(_ statement: Statement) {
        observersByKind.removeAll(keepingCapacity: true)
        updatedColumns = statement.updatedColumns
        advertisedTables = statement.modifiedTables
    }

    /// Called after a statement ran: reports the end of the transaction it
    /// committed or rolled back. A failed statement that rolled back its
    /// implicit transaction (an INSERT that violates a constraint, outside
    /// of any transaction) reports nothing, as GRDB; a commit that an
    /// observer cancelled reports a rollback and throws its error.
    func statementDidExecute(_ statement: Statement, failed: Bool) throws {
        if let effect = statement.transactionEffect, !failed {
            apply(effect)
        }
        guard pendingTransactionEnd != nil || !savepoints.isEmpty,
              sqlite3_get_autocommit(db.handle) != 0 else { return }
        // The transaction ended, and its savepoints with it.
        savepoints.removeAll()
        heldEvents.removeAll()
        guard let end = pendingTransactionEnd else { return }
        pendingTransactionEnd = nil
        if failed, case .rollback = end {
            uninstallHooksIfNeeded()
            return
        }
        let observers = entries.compactMap(\.observer)
        // Observers of one transaction leave; paused ones listen again.
        entries.removeAll { $0.extent == .nextTransaction || $0.observer == nil }
        for index in entries.indices { entries[index].isPaused = false }
        for observer in observers {
            switch end {
            case .commit: observer.databaseDidCommit(db)
            case .rollback, .cancelledCommit: observer.databaseDidRollback(db)
            }
        }
        uninstallHooksIfNeeded()
        if case .cancelledCommit(let error) = end { throw error }
    }

    /// Keeps the savepoints, and simulates the commit of an empty
    /// deferred transaction, which SQLite does not report: observers hear
    /// of every transaction that the code runs, empty or not, as in GRDB.
    private func apply(_ effect: TransactionEffect) {
        switch effect {
        case .beginSavepoint(let name):
            savepoints.append((name, heldEvents.count))
        case .releaseSavepoint(let name):
            if let index = savepoints.lastIndex(where: { $0.name == name }) {
                savepoints.removeSubrange(index...)
                if savepoints.isEmpty { deliverHeldEvents() }
            }
            reportEmptyCommitIfNeeded()
        case .rollbackToSavepoint(let name):
            // The savepoint stays open, emptied of its changes.
            guard let index = savepoints.lastIndex(where: { $0.name == name }) else { break }
            heldEvents.removeSubrange(savepoints[index].heldEventCount...)
            savepoints.removeSubrange((index + 1)...)
        case .commitTransaction:
            reportEmptyCommitIfNeeded()
        case .beginTransaction, .rollbackTransaction:
            break
        }
    }

    /// After a statement that ended the transaction without SQLite's
    /// commit hook (the transaction changed nothing), tells observers of
    /// the commit. A read-only access is no transaction for observers.
    private func reportEmptyCommitIfNeeded() {
        if pendingTransactionEnd == nil, hasObservers, !db.isReadOnly, sqlite3_get_autocommit(db.handle) != 0 {
            _ = willCommit()
        }
    }

    private func deliverHeldEvents() {
        let events = heldEvents
        heldEvents.removeAll()
        for (event, observers) in events {
            deliver(event, to: observers)
        }
    }

    private func deliver(_ event: DatabaseEvent, to interested: [ObjectIdentifier]) {
        for entry in entries where !entry.isPaused {
            if let observer = entry.observer, interested.contains(ObjectIdentifier(observer)) {
                observer.databaseDidChange(with: event)
            }
        }
    }

    // MARK: - Hooks

    private func installHooksIfNeeded() {
        guard !hooksInstalled else { return }
        hooksInstalled = true
        // The broker lives as long as the connection, which uninstalls the
        // hooks before it goes.
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(db.handle, { context, operation, databaseName, tableName, rowID in
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            broker.didChange(operation: operation, databaseName: databaseName, tableName: tableName, rowID: rowID)
        }, context)
        sqlite3_commit_hook(db.handle, { context in
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            return broker.willCommit() ? 0 : 1
        }, context)
        sqlite3_rollback_hook(db.handle, { context in
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            // The rollback that follows a cancelled commit keeps its error.
            if case .cancelledCommit = broker.pendingTransactionEnd { return }
            broker.pendingTransactionEnd = .rollback
            broker.heldEvents.removeAll()
        }, context)
    }

    private func uninstallHooksIfNeeded() {
        guard hooksInstalled, entries.isEmpty, pendingTransactionEnd == nil else { return }
        hooksInstalled = false
        sqlite3_update_hook(db.handle, nil, nil)
        sqlite3_commit_hook(db.handle, nil, nil)
        sqlite3_rollback_hook(db.handle, nil, nil)
    }

    func uninstallHooks() {
        entries.removeAll()
        pendingTransactionEnd = nil
        uninstallHooksIfNeeded()
    }

    private func willCommit() -> Bool {
        // A savepoint released by the commit (`RELEASE` of the savepoint
        // that began the transaction) delivers its changes first.
        deliverHeldEvents()
        for entry in entries where entry.observer != nil {
            do {
                try entry.observer!.databaseWillCommit()
            } catch {
                // The COMMIT fails with SQLITE_CONSTRAINT_COMMITHOOK, and
                // the transaction rolls back; the statement throws `error`.
                pendingTransactionEnd = .cancelledCommit(error)
                return false
            }
        }
        pendingTransactionEnd = .commit
        return true
    }

    private func didChange(operation: CInt, databaseName: UnsafePointer<CChar>?, tableName: UnsafePointer<CChar>?, rowID: Int64) {
        guard let kind = DatabaseEvent.Kind(rawValue: operation), let tableName, let databaseName else { return }
        let table = String(cString: tableName)
        let event = DatabaseEvent(kind: kind, databaseName: String(cString: databaseName), tableName: table, rowID: rowID)
        let eventKind: DatabaseEventKind
        switch kind {
        case .insert: eventKind = .insert(tableName: table)
        case .delete: eventKind = .delete(tableName: table)
        case .update: eventKind = .update(tableName: table, columnNames: updatedColumns[table.lowercased()] ?? [])
        }
        let interested: [ObjectIdentifier]
        if let cached = observersByKind[eventKind] {
            interested = cached
        } else {
            // A change of a table that the statement did not advertise when
            // it was prepared is the work of a virtual table (FTS4 writes
            // its shadow tables, `book_ft_content`…): every observer hears
            // of it, since none can tell what it changed (GRDB's rule).
            let isAdvertised = advertisedTables.contains(table.lowercased())
            interested = entries.compactMap { entry in
                entry.observer.flatMap { !isAdvertised || $0.observes(eventsOfKind: eventKind) ? ObjectIdentifier($0) : nil }
            }
            observersByKind[eventKind] = interested
        }
        if savepoints.isEmpty {
            deliver(event, to: interested)
        } else {
            heldEvents.append((event, interested))
        }
    }
}

// MARK: - Database

extension Database {
    /// Adds a transaction observer.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     db.add(transactionObserver: observer, extent: .observerLifetime)
    /// }
    /// ```
    public func add(transactionObserver: some TransactionObserver, extent: Database.TransactionObservationExtent = .observerLifetime) {
        observationBroker.add(transactionObserver, extent: extent)
    }

    /// Removes a transaction observer.
    public func remove(transactionObserver: some TransactionObserver) {
        observationBroker.remove(transactionObserver)
    }

    /// Runs `onCommit` after the current or next transaction commits, or
    /// `onRollback` after it rolls back, on the writer's queue. For work
    /// that must follow the database: start something only if the change
    /// that asks for it is saved.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try player.insert(db)
    ///     db.afterNextTransaction { _ in
    ///         print("player saved")
    ///     }
    /// }
    /// ```
    ///
    /// - precondition: the access is not read-only (its transaction
    ///   notifies no observer).
    public func afterNextTransaction(
        onCommit: @escaping @Sendable (Database) -> Void,
        onRollback: @escaping @Sendable (Database) -> Void = { _ in })
    {
        precondition(!isReadOnly, "afterNextTransaction: a read-only transaction notifies no observer")
        add(transactionObserver: TransactionCompletionHandler(onCommit: onCommit, onRollback: onRollback), extent: .nextTransaction)
    }

    /// Tells the transaction observers that the region may have changed,
    /// as if statements had modified it: those that observe it get
    /// ``TransactionObserver/databaseDidChange()``, and a
    /// ``ValueObservation`` that tracks it fetches again after the commit.
    /// For changes SQLite does not report (a virtual table, another
    /// process, an attached database changed by another connection).
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.notifyChanges(in: Table("player"))
    /// }
    /// ```
    ///
    /// Does nothing in a read-only access: its transaction notifies no
    /// observer.
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        guard !isReadOnly, observationBroker.hasObservers else { return }
        let eventKinds = try region.databaseRegion(self).impactfulEventKinds(self)
        observationBroker.notifyChanges(withEventsOfKind: eventKinds)
    }

    /// The connection whose queue runs the current code, if any: the
    /// database of the observer callbacks.
    static var current: Database? {
        DispatchQueue.getSpecific(key: SerializedDatabase.currentDatabaseKey)?.db
    }
}

/// The observer of ``Database/afterNextTransaction(onCommit:onRollback:)``:
/// it hears of the end of one transaction, and of no change.
private final class TransactionCompletionHandler: TransactionObserver {
    let onCommit: @Sendable (Database) -> Void
    let onRollback: @Sendable (Database) -> Void

    init(onCommit: @escaping @Sendable (Database) -> Void, onRollback: @escaping @Sendable (Database) -> Void) {
        self.onCommit = onCommit
        self.onRollback = onRollback
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { onCommit(db) }
    func databaseDidRollback(_ db: Database) { onRollback(db) }
}

extension DatabaseWriter {
    /// Adds a transaction observer to the writer connection.
    ///
    /// ```swift
    /// dbQueue.add(transactionObserver: observer)
    /// ```
    public func add(transactionObserver: some TransactionObserver, extent: Database.TransactionObservationExtent = .observerLifetime) {
        unsafeReentrantWrite { db in db.add(transactionObserver: transactionObserver, extent: extent) }
    }

    /// Removes a transaction observer from the writer connection.
    public func remove(transactionObserver: some TransactionObserver) {
        unsafeReentrantWrite { db in db.remove(transactionObserver: transactionObserver) }
    }
}
