import CipherDB
import Foundation
import Synchronization
import SyncEngine
import SyncSchema

/// Keeps an app's database in sync with a server, in the app: one object
/// to start and stop, which pushes each local change as soon as its
/// transaction commits, holds a long-poll for the server's changes, backs
/// off on failure (as long as a busy server's `Retry-After` asks), and
/// publishes what it does.
///
/// - ``start()`` runs it in a task of its own until ``stop()``:
///   continuously, or one sync (``Configuration/continuous``);
///   ``run()`` runs it in the caller's task until that is cancelled.
/// - ``syncNow()`` syncs at once and returns that sync's report, whether
///   the replicator runs or not.
/// - ``status`` and ``statuses()``: connecting, pushing, pulling with
///   progress, up to date (``SyncStatus/lastSyncedAt``), offline, failed
///   with a ``SyncFailure``.
/// - ``events()``: each sync's report, each conflict kept, each row the
///   server deleted, each local change refused.
///
/// A commit of the app's own connection that queues a change is seen
/// through the commit itself; one of another process (a command line on
/// the same file), through the file's `PRAGMA data_version`
/// (``SyncEngine/SyncLocalChanges``). Either ends the long-poll under way,
/// and the change is pushed at once.
///
/// ```swift
/// let replicator = SyncReplicator(dbPool, schema: schema, baseURL: url)
/// replicator.start()
/// for await status in replicator.statuses() { print(status.activity.kind) }   // connecting, pulling, upToDate…
/// ```
///
/// Subscribe to ``statuses()`` and ``events()`` before ``start()``: each
/// stream gives what follows its subscription, and ends when the
/// replication it follows ends (``stop()``, the end of ``run()``, or of a
/// one-shot ``start()``). `Sendable` through its mutex.
public final class SyncReplicator: Sendable {
    /// The client each sync runs (``SyncClient/pushThenPull(full:dryRun:)``),
    /// with the replicator's long-poll and hooks added.
    public let client: SyncClient<SyncEngineStore>
    public let configuration: Configuration
    let state = Mutex(State())
    /// Given by ``syncNow()``: ends a long-poll or a back-off.
    let wakeUp = SyncPulse()

    struct State {
        var status = SyncStatus()
        /// What the status becomes once a push is answered: up to date
        /// (the long-poll that follows waits for news), or pulling.
        var resting = SyncActivity.upToDate
        var statusSubscribers: [UInt64: AsyncStream<SyncStatus>.Continuation] = [:]
        var eventSubscribers: [UInt64: AsyncStream<SyncEvent>.Continuation] = [:]
        var lastID: UInt64 = 0
        /// Whether a loop runs, and whether it goes on after a sync.
        var running = false
        var continuous = false
        var task: Task<SyncFailure?, Never>?
        /// The ``syncNow()`` calls so far, and those waiting for a sync.
        var requests = 0
        var waiters: [UInt64: Waiter] = [:]
        /// A ``syncNow()`` call: the number of calls made when it was, and
        /// what to resume.
        typealias Waiter = (request: Int, continuation: CheckedContinuation<SyncPushPullReport, any Error>)

        mutating func nextID() -> UInt64 {
            lastID += 1
            return lastID
        }

        /// Sets the status, and gives it to every status stream.
        mutating func publish(_ status: SyncStatus) {
            self.status = status
            for subscriber in statusSubscribers.values { subscriber.yield(status) }
        }

        /// Gives `event` to every event stream.
        func tell(_ event: SyncEvent) {
            for subscriber in eventSubscribers.values { subscriber.yield(event) }
        }

        /// Resumes the ``syncNow()`` calls made before the sync that began
        /// when `request` calls were made.
        mutating func resumeWaiters(upTo request: Int, with result: Result<SyncPushPullReport, SyncFailure>) {
            for (id, waiter) in waiters where waiter.request <= request {
                waiters.removeValue(forKey: id)
                waiter.continuation.resume(with: result.mapError { $0 as any Error })
            }
        }

        /// The streams, taken out of the state: ended by the caller once
        /// out of the lock.
        mutating func takeSubscribers() -> Subscribers {
            defer {
                statusSubscribers.removeAll()
                eventSubscribers.removeAll()
            }
            return Subscribers(statuses: Array(statusSubscribers.values), events: Array(eventSubscribers.values))
        }
    }

    /// The streams of a replication that ended.
    struct Subscribers {
        var statuses: [AsyncStream<SyncStatus>.Continuation] = []
        var events: [AsyncStream<SyncEvent>.Continuation] = []

        func finish() {
            for subscriber in statuses { subscriber.finish() }
            for subscriber in events { subscriber.finish() }
        }
    }

    public init(client: SyncClient<SyncEngineStore>, configuration: Configuration = Configuration()) {
        self.client = client
        self.configuration = configuration
    }

    /// A replicator of `writer`'s database (the engine installed for
    /// `schema`) and the server at `baseURL`: the store, the client and the
    /// replicator in one.
    ///
    /// ```swift
    /// let replicator = SyncReplicator(dbPool, schema: schema, baseURL: URL(string: "https://sync.example.com")!)
    /// ```
    public convenience init(_ writer: any DatabaseWriter, schema: SyncSchema, baseURL: URL,
                            transport: any HTTPTransport = CurlTransport(), configuration: Configuration = Configuration()) {
        let store = SyncEngineStore(writer, schema: schema)
        self.init(client: SyncClient(transport: transport, endpoint: store.rowsEndpoint(baseURL: baseURL), store: store),
                  configuration: configuration)
    }

    /// What the replicator does now.
    public var status: SyncStatus { state.withLock { $0.status } }

    /// The status now, then each change of it, until the replication ends.
    public func statuses() -> AsyncStream<SyncStatus> {
        let (stream, continuation) = AsyncStream<SyncStatus>.makeStream()
        let id = state.withLock { state in
            let id = state.nextID()
            state.statusSubscribers[id] = continuation
            continuation.yield(state.status)
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.statusSubscribers.removeValue(forKey: id) } }
        return stream
    }

    /// The events that follow, until the replication ends.
    public func events() -> AsyncStream<SyncEvent> {
        let (stream, continuation) = AsyncStream<SyncEvent>.makeStream()
        let id = state.withLock { state in
            let id = state.nextID()
            state.eventSubscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.eventSubscribers.removeValue(forKey: id) } }
        return stream
    }

    /// Starts replicating in a task of its own, continuously or once
    /// (``Configuration/continuous``); does nothing while it runs, except
    /// that a continuous replicator keeps running after a ``syncNow()``
    /// under way.
    public func start() {
        state.withLock { state in
            state.continuous = configuration.continuous
            guard !state.running else { return }
            state.running = true
            state.task = Task { await self.replicate(endingStreams: true) }
        }
    }

    /// Stops replicating: the transfer under way is cancelled (a merge
    /// under way finishes or rolls back whole, and the staging is
    /// emptied), the status becomes ``SyncActivity/idle``, and the streams
    /// end. Returns once it has stopped.
    public func stop() async {
        let task = state.withLock { state in
            state.continuous = false
            return state.task
        }
        task?.cancel()
        _ = await task?.value
        // Without a replication (none ran, or only syncNow()'s), the
        // streams end here.
        state.withLock { state -> Subscribers in
            guard !state.running else { return Subscribers() }
            state.publish(SyncStatus(activity: .idle, lastSyncedAt: state.status.lastSyncedAt))
            return state.takeSubscribers()
        }.finish()
    }

    /// Replicates in the calling task, continuously or once
    /// (``Configuration/continuous``), until the task is cancelled.
    /// Returns the failure that ended it: one no retry mends
    /// (``SyncFailure/endsReplication``), or a one-shot's; nil when
    /// cancelled or a one-shot succeeded. The replicator must not be
    /// running already.
    public func run() async -> SyncFailure? {
        let began = state.withLock { state in
            guard !state.running else { return false }
            state.running = true
            state.continuous = configuration.continuous
            return true
        }
        precondition(began, "SyncReplicator.run(): the replicator runs already; stop() it first")
        return await replicate(endingStreams: true)
    }

    /// Syncs at once (ending the long-poll or the back-off under way) and
    /// returns the report of that sync, or throws its error; without a
    /// replication running, runs one sync. Throws `CancellationError`
    /// when the caller's task is cancelled or the replicator stops first.
    public func syncNow() async throws -> SyncPushPullReport {
        let id = state.withLock { $0.nextID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let cancelled = state.withLock { state in
                    if Task.isCancelled { return true }
                    state.requests += 1
                    state.waiters[id] = (state.requests, continuation)
                    if !state.running {
                        state.running = true
                        state.continuous = false
                        state.task = Task { await self.replicate(endingStreams: false) }
                    }
                    return false
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    wakeUp.signal()
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(throwing: CancellationError())
        }
    }
}
