import Dispatch
import Synchronization

/// Runs one started ``ValueObservation``: the initial fetch and the
/// registration of its observer happen in one access of the writer, so
/// that no commit falls between them; then each commit that touches the
/// region triggers a fetch. Fetches run one at a time: a commit during a
/// fetch triggers one more fetch after it, so that the last value always
/// reflects the last commit.
///
/// `Sendable` through its mutex: `state` holds every mutable part.
final class ValueObservationRunner<Value: Sendable>: Sendable {
    private struct State: ~Copyable {
        var isCancelled = false
        var isFetching = false
        var needsFetch = false
        var region = DatabaseRegion()
        var observer: RegionChangeObserver?
    }

    private let fetch: @Sendable (Database) throws -> Value?
    private let constantRegion: [any DatabaseRegionConvertible]?
    private let events: ValueObservationEvents
    private let writer: any DatabaseWriter
    private let isImmediate: Bool
    private let deliveryQueue: DispatchQueue
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Value) -> Void
    private let state = Mutex(State())

    init(observation: ValueObservation<Value>, writer: any DatabaseWriter, scheduler: ValueObservationScheduler,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void)
    {
        fetch = observation.makeFetch()
        constantRegion = observation.constantRegion
        events = observation.events
        self.writer = writer
        self.onError = onError
        self.onChange = onChange
        switch scheduler {
        case .immediate:
            isImmediate = true
            deliveryQueue = DispatchQueue(label: "CipherDB.ValueObservation")
        case .async(let queue):
            isImmediate = false
            deliveryQueue = queue
        }
    }

    // MARK: - Start and cancel

    func start() {
        events.willStart.forEach { $0() }
        if isImmediate {
            do {
                let value = try writer.writeWithoutTransaction { db in try startObserving(db) }
                if let value { onChange(value) }
            } catch {
                fail(error, synchronously: true)
            }
        } else {
            writer.asyncWriteWithoutTransaction { db in
                self.deliver(Result { try self.startObserving(db) })
            }
        }
    }

    /// The initial fetch, and the observer of the region it read.
    private func startObserving(_ db: Database) throws -> Value? {
        if state.withLock({ $0.isCancelled }) { return nil }
        let (value, region) = try fetchValue(db, readAccess: { try db.isolatedRead($0) })
        let observer = RegionChangeObserver(runner: self)
        state.withLock { state in
            state.region = region
            state.observer = observer
        }
        db.add(transactionObserver: observer, extent: .databaseLifetime)
        return value
    }

    func cancel() {
        let observer: RegionChangeObserver? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            state.isCancelled = true
            defer { state.observer = nil }
            return state.observer
        }
        guard let observer else { return }
        events.didCancel.forEach { $0() }
        writer.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: observer) }
    }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    // MARK: - Fetching

    /// Fetches the value, and the region it reads (or the constant one).
    private func fetchValue(_ db: Database, readAccess: (() throws -> Value?) throws -> Value?) throws -> (Value?, DatabaseRegion) {
        events.willFetch.forEach { $0() }
        if let constantRegion {
            let value = try readAccess { try fetch(db) }
            let region = try constantRegion.reduce(into: DatabaseRegion()) { $0.formUnion(try $1.databaseRegion(db)) }
            return (value, region)
        }
        return try db.recordingSelectedRegion { try readAccess { try fetch(db) } }
    }

    /// Called on the writer's queue after a commit that touched the region.
    func databaseDidChange() {
        events.databaseDidChange.forEach { $0() }
        let shouldFetch = state.withLock { state -> Bool in
            if state.isCancelled { return false }
            if state.isFetching {
                state.needsFetch = true
                return false
            }
            state.isFetching = true
            return true
        }
        if shouldFetch { fetchChange() }
    }

    /// Fetches after a change: on the writer for a queue, on a reader for a
    /// pool, in a read access that starts after the commit.
    private func fetchChange() {
        writer.asyncRead { result in
            let outcome = Result { () -> Value? in
                let db = try result.get()
                let (value, region) = try self.fetchValue(db, readAccess: { try $0() })
                self.track(region)
                return value
            }
            self.deliver(outcome)
            let fetchAgain = self.state.withLock { state -> Bool in
                if state.isCancelled { return false }
                if state.needsFetch {
                    state.needsFetch = false
                    return true
                }
                state.isFetching = false
                return false
            }
            if fetchAgain { self.fetchChange() }
        }
    }

    /// Updates the tracked region. A change of region means that a commit
    /// may have touched the new region unnoticed: fetch once more.
    private func track(_ region: DatabaseRegion) {
        let changed = state.withLock { state -> Bool in
            guard state.region != region else { return false }
            state.region = region
            state.needsFetch = true
            return true
        }
        if changed { events.willTrackRegion.forEach { $0(region) } }
    }

    /// The current region, for the observer.
    var region: DatabaseRegion { state.withLock { $0.region } }

    // MARK: - Delivery

    private func deliver(_ outcome: Result<Value?, any Error>) {
        switch outcome {
        case .success(let value):
            guard let value else { return }
            deliveryQueue.async {
                if !self.isCancelled { self.onChange(value) }
            }
        case .failure(let error):
            fail(error, synchronously: false)
        }
    }

    /// Ends the observation with an error.
    private func fail(_ error: any Error, synchronously: Bool) {
        guard !isCancelled else { return }
        events.didFail.forEach { $0(error) }
        let report: @Sendable () -> Void = { [onError] in onError(error) }
        if synchronously {
            report()
        } else {
            deliveryQueue.async(execute: report)
        }
        cancel()
    }
}

/// The transaction observer of a started ``ValueObservation``.
///
/// `@unchecked Sendable`: `isChanged` is only touched by the observer
/// callbacks, which run on the writer's queue.
final class RegionChangeObserver: TransactionObserver, @unchecked Sendable {
    private let onChange: @Sendable () -> Void
    private let currentRegion: @Sendable () -> DatabaseRegion
    private var isChanged = false

    init<Value>(runner: ValueObservationRunner<Value>) {
        onChange = { runner.databaseDidChange() }
        currentRegion = { runner.region }
    }

    init(region: DatabaseRegion, onChange: @escaping @Sendable () -> Void) {
        self.onChange = onChange
        currentRegion = { region }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        currentRegion().isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if currentRegion().isModified(by: event) {
            isChanged = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidCommit(_ db: Database) {
        guard isChanged else { return }
        isChanged = false
        onChange()
    }

    func databaseDidRollback(_ db: Database) {
        isChanged = false
    }
}
