import Synchronization

/// What runs a started ``ValueObservation``, until it is cancelled.
protocol ValueObservationRunning: Sendable {
    func start()
    func cancel()
}

/// The reduction and the delivery of the values of one started
/// ``ValueObservation``, shared by its runners: the reducer runs under a
/// mutex, in the order of the fetches, and values and errors reach the
/// scheduler unless the observation was cancelled.
///
/// `Sendable` through its lock, which guards the reducer, and its atomic.
final class ValueObservationDelivery<Reducer: ValueReducer>: Sendable {
    /// The fetch, which runs on the connections' queues.
    let fetcher: Reducer.Fetcher
    let events: ValueObservationEvents
    /// Only touched under `reducerLock`: a reducer is not `Sendable`.
    nonisolated(unsafe) private var reducer: Reducer
    private let reducerLock = Mutex(())
    private let scheduler: any ValueObservationScheduler
    private let onError: @Sendable (any Error) -> Void
    private let onChange: @Sendable (Reducer.Value) -> Void
    private let cancelled = Atomic<Bool>(false)

    init(observation: ValueObservation<Reducer>, scheduler: some ValueObservationScheduler,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Reducer.Value) -> Void)
    {
        reducer = observation.makeReducer()
        fetcher = reducer._makeFetcher()
        events = observation.events
        self.scheduler = scheduler
        self.onError = onError
        self.onChange = onChange
    }

    /// Whether the initial value is delivered before `start` returns.
    var isImmediate: Bool { scheduler.immediateInitialValue() }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the observation cancelled; false if it already was.
    func markCancelled() -> Bool {
        !cancelled.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// The value to deliver for a fetched value, if any.
    func reduce(_ fetched: Reducer.Fetcher.Value) throws -> Reducer.Value? {
        try reducerLock.withLock { _ in try reducer._value(fetched) }
    }

    /// Delivers a value: the initial one synchronously if the scheduler
    /// says so.
    func deliver(_ value: Reducer.Value, isInitial: Bool) {
        let action: @Sendable () -> Void = { [onChange] in
            if !self.isCancelled { onChange(value) }
        }
        if isInitial {
            scheduler.scheduleInitial(action)
        } else {
            scheduler.schedule(action)
        }
    }

    /// Ends the observation with an error. Returns false if it was already
    /// cancelled (the error is then dropped).
    @discardableResult
    func fail(_ error: any Error, isInitial: Bool) -> Bool {
        guard markCancelled() else { return false }
        events.didFail.forEach { $0(error) }
        let action: @Sendable () -> Void = { [onError] in onError(error) }
        if isInitial {
            scheduler.scheduleInitial(action)
        } else {
            scheduler.schedule(action)
        }
        return true
    }
}
