@preconcurrency import Dispatch
import Foundation
import Synchronization

/// A database connection and the serial dispatch queue that runs every
/// access to it: the one place that makes a non-`Sendable` ``Database``
/// usable from many threads and tasks.
///
/// `@unchecked Sendable` is safe because `db` is only touched on `queue`
/// (`sync` checks it is not called from `queue` itself, and `async` work
/// runs on `queue`), except for `sqlite3_interrupt`, which SQLite documents
/// as callable from any thread, and which `interruptLock` keeps from racing
/// with closing.
final class SerializedDatabase: @unchecked Sendable {
    private let db: Database
    let queue: DispatchQueue
    /// The value of ``currentDatabaseKey`` on `queue`: its identity tells
    /// this connection's queue from others.
    private let current: CurrentDatabase
    private let executor: DatabaseExecutor
    /// Guards `interrupt()` against the connection being closed meanwhile.
    private let interruptLock = Mutex<Bool>(false) // isClosed

    /// The path of the database.
    let path: String

    init(path: String, configuration: Configuration, description: String) throws {
        self.path = path
        db = try Database(path: path, description: description, configuration: configuration)
        // Readers (read-only connections) and the writer may have their
        // own target queues.
        if configuration.readonly {
            queue = DispatchQueue(label: description, qos: configuration.readQoS, target: configuration.targetQueue)
        } else {
            queue = DispatchQueue(
                label: description, qos: configuration.writeQoS,
                target: configuration.writeTargetQueue ?? configuration.targetQueue)
        }
        current = CurrentDatabase(db)
        queue.setSpecific(key: Self.currentDatabaseKey, value: current)
        executor = DatabaseExecutor(queue: queue)
    }

    deinit {
        // Closed on the thread that releases the last reference: no other
        // thread can hold the connection then.
        interruptLock.withLock { $0 = true }
        db.close_v2()
    }

    /// The connection of the queue that runs the current code.
    /// `nonisolated(unsafe)`: the key is an immutable token; libdispatch
    /// makes its use thread-safe.
    nonisolated(unsafe) static let currentDatabaseKey = DispatchSpecificKey<CurrentDatabase>()

    /// Whether the current code runs on this connection's queue.
    ///
    /// A key of its own per connection would not do: libdispatch knows a
    /// key by its address, which a later key may reuse while another queue
    /// (the main queue, in tests) still holds a value for the freed one.
    var isOnQueue: Bool {
        DispatchQueue.getSpecific(key: Self.currentDatabaseKey) === current
    }

    /// When true, an access may end with a transaction left open whatever
    /// ``Configuration/allowsUnsafeTransactions`` says: the connection of a
    /// ``DatabaseSnapshot`` keeps its read transaction. Only touched on
    /// `queue`.
    private var allowsLongLivedTransaction = false

    /// Runs `block` on the queue and waits for it. Not reentrant.
    ///
    /// An access of a closed connection runs: its statements throw.
    func sync<T>(_ block: (Database) throws -> T) rethrows -> T {
        precondition(!isOnQueue, "Database methods are not reentrant.")
        return try queue.sync {
            db.schemaCacheMayBeStale()
            defer { preconditionNoTransactionLeft() }
            return try block(db)
        }
    }

    /// Like `sync(_:)`, and lets this access and the later ones leave a
    /// transaction open, or not.
    func sync<T>(allowingLongLivedTransaction: Bool, _ block: (Database) throws -> T) rethrows -> T {
        try sync { db in
            allowsLongLivedTransaction = allowingLongLivedTransaction
            return try block(db)
        }
    }

    /// Runs `block` on the queue, directly if already there.
    func reentrantSync<T>(_ block: (Database) throws -> T) rethrows -> T {
        guard isOnQueue else { return try sync(block) }
        // A reentrant access may run inside the transaction of the outer
        // one: only the outer one must close it.
        if db.isInsideTransaction { return try block(db) }
        defer { preconditionNoTransactionLeft() }
        return try block(db)
    }

    /// Runs `block` on the queue, later.
    func async(_ block: @escaping @Sendable (Database) -> Void) {
        queue.async {
            self.db.schemaCacheMayBeStale()
            block(self.db)
            self.preconditionNoTransactionLeft()
        }
    }

    /// Stops the program unless this is the queue of the connection, in an
    /// access outside of any transaction: a concurrent read sees what the
    /// writer committed last, so it must start from a write access, and
    /// not see a transaction in progress.
    func preconditionConcurrentReadIsolation() {
        precondition(isOnQueue, "spawnConcurrentRead must be called from a write access.")
        precondition(!db.isInsideTransaction, """
            spawnConcurrentRead must not be called from inside a transaction: \
            write with writeWithoutTransaction instead, and open transactions where needed.
            """)
    }

    /// Stops the program if an access left a transaction open: the next
    /// access would run in it, unknowingly. Transactions belong inside
    /// ``DatabaseWriter/write(_:)``, ``Database/inTransaction(_:_:)``…
    private func preconditionNoTransactionLeft() {
        precondition(
            allowsLongLivedTransaction || db.configuration.allowsUnsafeTransactions || !db.isInsideTransaction,
            "A transaction has been left opened at the end of a database access")
    }

    /// Runs `block` on the queue without blocking a thread of the
    /// cooperative pool. Task cancellation interrupts the statement that
    /// `block` runs; the access then throws `CancellationError`.
    func execute<T: Sendable>(_ block: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        let state = AccessState()
        do {
            return try await withTaskCancellationHandler {
                try await executor.run {
                    try state.phase.withLock { phase in
                        if phase == .cancelled { throw CancellationError() }
                        phase = .running
                    }
                    defer {
                        preconditionNoTransactionLeft()
                        state.phase.withLock { phase in
                            phase = .finished
                            // Under the lock, so that a late cancellation
                            // cannot flag the next access.
                            db.cancellation.set(false)
                        }
                    }
                    db.schemaCacheMayBeStale()
                    return try block(db)
                }
            } onCancel: {
                state.phase.withLock { phase in
                    // Stop only the access of this task: never a statement
                    // of a later access on the same connection.
                    if phase == .running {
                        self.db.cancellation.set(true)
                        self.interrupt()
                    }
                    phase = .cancelled
                }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            if Task.isCancelled { throw CancellationError() }
            throw error
        }
    }

    /// The progress of one async access, shared with its cancellation
    /// handler.
    private final class AccessState: Sendable {
        enum Phase { case waiting, running, cancelled, finished }
        let phase = Mutex(Phase.waiting)
    }

    /// Interrupts the running statement, if any. Callable from any thread.
    func interrupt() {
        interruptLock.withLock { isClosed in
            if !isClosed { db.interrupt() }
        }
    }

    /// Closes the connection, on its queue. Closing a closed connection
    /// does nothing.
    func close() throws {
        try reentrantSync { db in
            try interruptLock.withLock { isClosed in
                try db.close()
                isClosed = true
            }
        }
    }
}

/// An actor whose jobs run on a connection's dispatch queue, so that async
/// accesses run the same serial queue as the synchronous ones.
actor DatabaseExecutor {
    private let queueExecutor: DispatchQueueSerialExecutor

    init(queue: DispatchQueue) {
        queueExecutor = DispatchQueueSerialExecutor(queue: queue)
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        queueExecutor.asUnownedSerialExecutor()
    }

    func run<T>(_ work: () throws -> T) rethrows -> T {
        try work()
    }
}

/// A serial executor that enqueues jobs on a dispatch queue.
///
/// `@unchecked Sendable`: its only state is an immutable reference to a
/// `DispatchQueue`, which is thread-safe.
final class DispatchQueueSerialExecutor: SerialExecutor, @unchecked Sendable {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: UnownedJob) {
        queue.async {
            job.runSynchronously(on: self.asUnownedSerialExecutor())
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

/// The value of ``SerializedDatabase/currentDatabaseKey``: read only on the
/// connection's own queue, where the connection is alive.
final class CurrentDatabase {
    unowned let db: Database
    init(_ db: Database) { self.db = db }
}
