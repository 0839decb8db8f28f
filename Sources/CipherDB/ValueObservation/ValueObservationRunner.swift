import Dispatch
import Synchronization

/// Runs one started ``ValueObservation``: a fetch and the registration of
/// its observer happen in one access of the writer, so that no commit
/// falls between them; then each commit that touches the region triggers
/// a fetch.
///
/// On a ``DatabaseQueue``, or when the observation requires write access,
/// the initial value is that fetch on the writer, and the fetch after a
/// commit runs on the writer too, in the access of the commit, before any
/// other statement: one value per commit, as GRDB.
///
/// On a ``DatabasePool``, the initial value is fetched on a reader, so
/// that it does not wait for a write in progress; then the writer fetches
/// again as it registers the observer, and delivers that value too (the
/// reducer drops it if the observation removes duplicates): without WAL
/// snapshots (SQLite 3.15.2), nothing tells whether a commit fell between
/// the two accesses. This is GRDB's behaviour when built without
/// snapshots. Fetches after commits run on readers, one at a time, and a
/// commit during a fetch triggers one more fetch after it, so that the
/// last value always reflects the last commit.
///
/// `Sendable` through its mutex: `state` holds every mutable part.
final class ValueObservationRunner<Reducer: ValueReducer>: ValueObservationRunning {
    private struct State: ~Copyable {
        var isFetching = false
        var needsFetch = false
        /// The region the observer tracks: the observable part of
        /// `recordedRegion`.
        var region = DatabaseRegion()
        /// The region the last fetch read.
        var recordedRegion = DatabaseRegion()
        var observer: RegionChangeObserver?
    }

    private let delivery: ValueObservationDelivery<Reducer>
    private let trackingMode: ValueObservationTrackingMode
    private let requiresWriteAccess: Bool
    /// Whether each commit is followed by a fetch on the writer, in the
    /// commit's access: one value per commit, none coalesced (a queue, or
    /// an observation that requires write access).
    private let fetchesAfterEachCommit: Bool
    private let writer: any DatabaseWriter
    private let state = Mutex(State())

    init(observation: ValueObservation<Reducer>, writer: any DatabaseWriter, scheduler: some ValueObservationScheduler,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Reducer.Value) -> Void)
    {
        delivery = ValueObservationDelivery(observation: observation, scheduler: scheduler, onError: onError, onChange: onChange)
        trackingMode = observation.trackingMode
        requiresWriteAccess = observation.requiresWriteAccess
        fetchesAfterEachCommit = observation.requiresWriteAccess || writer is DatabaseQueue
        self.writer = writer
    }

    // MARK: - Start and cancel

    func start() {
        if fetchesAfterEachCommit {
            startOnWriter()
        } else {
            startOnReader()
        }
    }

    /// The initial value from the access of the writer that registers the
    /// observer.
    private func startOnWriter() {
        if delivery.isImmediate {
            do {
                if let value = try writer.writeWithoutTransaction({ db in try startObserving(db) }) {
                    delivery.deliver(value, isInitial: true)
                }
            } catch {
                delivery.fail(error, isInitial: true)
            }
        } else {
            writer.asyncWriteWithoutTransaction { db in
                do {
                    if let value = try self.startObserving(db) {
                        self.delivery.deliver(value, isInitial: true)
                    }
                } catch {
                    self.delivery.fail(error, isInitial: true)
                }
            }
        }
    }

    /// The initial value from a reader, then the observer registered by
    /// the writer, which fetches again: a commit may have come between.
    private func startOnReader() {
        if delivery.isImmediate {
            do {
                let fetched = try writer.read { db in try delivery.fetcher.fetch(db) }
                let value = try delivery.reduce(fetched)
                asyncStartObservingAfterReaderFetch()
                if let value { delivery.deliver(value, isInitial: true) }
            } catch {
                delivery.fail(error, isInitial: true)
            }
        } else {
            writer.asyncRead { result in
                if self.delivery.isCancelled { return }
                do {
                    let fetched = try self.delivery.fetcher.fetch(result.get())
                    if let value = try self.delivery.reduce(fetched) {
                        self.delivery.deliver(value, isInitial: true)
                    }
                    self.asyncStartObservingAfterReaderFetch()
                } catch {
                    self.delivery.fail(error, isInitial: true)
                }
            }
        }
    }

    private func asyncStartObservingAfterReaderFetch() {
        writer.asyncWriteWithoutTransaction { db in
            if self.delivery.isCancelled { return }
            self.delivery.events.databaseDidChange.forEach { $0() }
            do {
                if let value = try self.startObserving(db) {
                    self.delivery.deliver(value, isInitial: false)
                }
            } catch {
                self.fail(error)
            }
        }
    }

    /// A fetch, and the observer of the region, in one access of the
    /// writer: no commit can fall between them. Its value is the initial
    /// one, or on a pool the one after the reader's.
    private func startObserving(_ db: Database) throws -> Reducer.Value? {
        if delivery.isCancelled { return nil }
        let (fetched, recordedRegion, region) = try db.isolated(readOnly: !requiresWriteAccess) {
            let (fetched, recordedRegion) = try {
                switch trackingMode {
                case .constantRegion(let regions):
                    let fetched = try delivery.fetcher.fetch(db)
                    return (fetched, try regions.databaseRegion(db))
                case .constantRegionRecordedFromSelection, .nonConstantRegionRecordedFromSelection:
                    return try db.recordingSelectedRegion { try delivery.fetcher.fetch(db) }
                }
            }()
            return try (fetched, recordedRegion, recordedRegion.observableRegion(db))
        }
        delivery.events.willTrackRegion.forEach { $0(region) }
        let value = try delivery.reduce(fetched)
        let observer = RegionChangeObserver(runner: self)
        state.withLock { state in
            state.region = region
            state.recordedRegion = recordedRegion
            state.observer = observer
        }
        db.add(transactionObserver: observer, extent: .databaseLifetime)
        // A cancellation that came before the observer was stored did not
        // see it.
        if delivery.isCancelled { db.remove(transactionObserver: observer) }
        return value
    }

    func cancel() {
        guard delivery.markCancelled() else { return }
        let observer = state.withLock { state in
            defer { state.observer = nil }
            return state.observer
        }
        delivery.events.didCancel.forEach { $0() }
        guard let observer else { return }
        writer.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: observer) }
    }

    /// Ends the observation after a failed fetch.
    private func fail(_ error: any Error) {
        guard delivery.fail(error, isInitial: false) else { return }
        let observer = state.withLock { state in
            defer { state.observer = nil }
            return state.observer
        }
        guard let observer else { return }
        writer.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: observer) }
    }

    // MARK: - Fetching

    /// Called on the writer's queue after a commit that touched the region,
    /// with the connection that committed.
    func databaseDidChange(_ db: Database) {
        delivery.events.databaseDidChange.forEach { $0() }
        if fetchesAfterEachCommit {
            guard !delivery.isCancelled else { return }
            do {
                // The task of the write may be cancelled once it has
                // committed (GRDB's issue 1746): the observation is not.
                let fetched = try db.ignoringCancellation {
                    try db.isolated(readOnly: !requiresWriteAccess) { try fetchAfterChange(db) }
                }
                if let value = try delivery.reduce(fetched) {
                    delivery.deliver(value, isInitial: false)
                }
            } catch {
                fail(error)
            }
            return
        }
        let shouldFetch = state.withLock { state -> Bool in
            if delivery.isCancelled { return false }
            if state.isFetching {
                state.needsFetch = true
                return false
            }
            state.isFetching = true
            return true
        }
        if shouldFetch { fetchChange() }
    }

    /// Fetches after a change on a pool reader, in an access that starts
    /// after the commit.
    private func fetchChange() {
        let body: @Sendable (Result<Database, Error>) -> Void = { result in
            do {
                let db = try result.get()
                if let value = try self.delivery.reduce(self.fetchAfterChange(db)) {
                    self.delivery.deliver(value, isInitial: false)
                }
            } catch {
                self.fail(error)
            }
            let fetchAgain = self.state.withLock { state -> Bool in
                if self.delivery.isCancelled { return false }
                if state.needsFetch {
                    state.needsFetch = false
                    return true
                }
                state.isFetching = false
                return false
            }
            if fetchAgain { self.fetchChange() }
        }
        writer.asyncRead(body)
    }

    /// A fetch after a change, and the region it read tracked if the
    /// region is not constant. Runs in a transaction.
    private func fetchAfterChange(_ db: Database) throws -> Reducer.Fetcher.Value {
        switch trackingMode {
        case .nonConstantRegionRecordedFromSelection:
            let (fetched, region) = try db.recordingSelectedRegion { try delivery.fetcher.fetch(db) }
            try track(region, db)
            return fetched
        case .constantRegion, .constantRegionRecordedFromSelection:
            return try delivery.fetcher.fetch(db)
        }
    }

    /// Updates the tracked region. A change of region, in a fetch on a
    /// reader, means that a commit may have touched the new region
    /// unnoticed: fetch once more. A fetch in the access of a commit sees
    /// no other commit.
    private func track(_ recordedRegion: DatabaseRegion, _ db: Database) throws {
        // The observable region needs the schema: only for a new region.
        guard state.withLock({ $0.recordedRegion != recordedRegion }) else { return }
        let region = try recordedRegion.observableRegion(db)
        let changed = state.withLock { state -> Bool in
            state.recordedRegion = recordedRegion
            guard state.region != region else { return false }
            state.region = region
            if !fetchesAfterEachCommit { state.needsFetch = true }
            return true
        }
        if changed { delivery.events.willTrackRegion.forEach { $0(region) } }
    }

    /// The current region, for the observer.
    var region: DatabaseRegion { state.withLock { $0.region } }
}

/// The transaction observer of a started ``ValueObservation``.
///
/// `@unchecked Sendable`: `isChanged` is only touched by the observer
/// callbacks, which run on the writer's queue.
final class RegionChangeObserver: TransactionObserver, @unchecked Sendable {
    private let onChange: @Sendable (Database) -> Void
    private let currentRegion: @Sendable () -> DatabaseRegion
    private var isChanged = false

    init<Reducer>(runner: ValueObservationRunner<Reducer>) {
        onChange = { db in runner.databaseDidChange(db) }
        currentRegion = { runner.region }
    }

    init(region: DatabaseRegion, onChange: @escaping @Sendable (Database) -> Void) {
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

    func databaseDidChange() {
        isChanged = true
    }

    func databaseDidCommit(_ db: Database) {
        guard isChanged else { return }
        isChanged = false
        onChange(db)
    }

    func databaseDidRollback(_ db: Database) {
        isChanged = false
    }
}
