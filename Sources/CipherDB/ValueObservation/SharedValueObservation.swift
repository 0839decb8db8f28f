import Foundation

/// How long a ``SharedValueObservation`` keeps observing the database.
public enum SharedValueObservationExtent: Sendable {
    /// Until the shared observation is deallocated: a new subscriber gets
    /// the last value (or error) at once, without a fetch.
    case observationLifetime

    /// While it has subscribers: the last one to leave stops the database
    /// observation, and the next one to come starts a new one. An error
    /// also stops it.
    case whileObserved
}

extension ValueObservation where Reducer: ValueReducer {
    /// One database observation that several subscribers share: each
    /// value is fetched once, and delivered to all of them.
    ///
    /// ```swift
    /// let players = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .shared(in: dbQueue)
    /// let first = players.start(onError: { _ in }, onChange: { print($0) })
    /// let second = players.start(onError: { _ in }, onChange: { print($0) })
    /// ```
    public func shared(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved) -> SharedValueObservation<Reducer.Value>
    {
        SharedValueObservation(scheduler: scheduler, extent: extent) { onError, onChange in
            self.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// A ``ValueObservation`` shared by several subscribers: see
/// ``ValueObservation/shared(in:scheduling:extent:)``.
///
/// `@unchecked Sendable`: its state is only read and written under `lock`.
/// The lock is recursive because an immediate scheduler delivers the first
/// value while ``start(onError:onChange:)`` holds it, and a subscriber may
/// start another subscription from a value it receives.
public final class SharedValueObservation<Element: Sendable>: @unchecked Sendable {
    fileprivate typealias Start = @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable

    /// A subscriber, known by identity.
    private final class Subscriber: Sendable {
        let onError: @Sendable (any Error) -> Void
        let onChange: @Sendable (Element) -> Void

        init(onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Element) -> Void) {
            self.onError = onError
            self.onChange = onChange
        }
    }

    private let scheduler: any ValueObservationScheduler
    private let extent: SharedValueObservationExtent
    private let startObservation: Start
    private let lock = NSRecursiveLock()
    private var subscribers: [Subscriber] = []
    /// Whether the database observation runs (it may not have returned
    /// its cancellable yet: see `start`).
    private var isObserving = false
    private var cancellable: AnyDatabaseCancellable?
    private var lastResult: Result<Element, any Error>?

    fileprivate init(scheduler: some ValueObservationScheduler, extent: SharedValueObservationExtent, startObservation: @escaping Start) {
        self.scheduler = scheduler
        self.extent = extent
        self.startObservation = startObservation
    }

    /// Subscribes to the observation: the first subscriber starts it, the
    /// others get the last value at once, then every new one. The
    /// subscription ends when the cancellable is cancelled or deallocated;
    /// the shared observation lives at least as long.
    ///
    /// ```swift
    /// let cancellable = sharedObservation.start(
    ///     onError: { error in print(error) },
    ///     onChange: { players in print(players) })
    /// ```
    public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable
    {
        lock.withLock {
            let subscriber = Subscriber(onError: onError, onChange: onChange)
            subscribers.append(subscriber)
            if !isObserving {
                isObserving = true
                // The observation holds the shared observation weakly, so
                // that deallocating the shared observation stops it.
                cancellable = startObservation(
                    { [weak self] error in self?.observationDidFail(error) },
                    { [weak self] value in self?.observationDidChange(value) })
            } else if let lastResult {
                scheduler.scheduleInitial {
                    switch lastResult {
                    case .success(let value): onChange(value)
                    case .failure(let error): onError(error)
                    }
                }
            }
            // The subscription holds the shared observation.
            return AnyDatabaseCancellable { self.unsubscribe(subscriber) }
        }
    }

    /// The values of the shared observation, as an async sequence: each
    /// iteration is a subscriber.
    ///
    /// ```swift
    /// for try await players in sharedObservation.values() { print(players) }
    /// ```
    public func values(bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded) -> AsyncValueObservation<Element> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(onError: onError, onChange: onChange)
        }
    }

    private func observationDidChange(_ value: Element) {
        lock.withLock {
            lastResult = .success(value)
            for subscriber in subscribers {
                subscriber.onChange(value)
            }
        }
    }

    /// An error ends every subscription.
    private func observationDidFail(_ error: any Error) {
        lock.withLock {
            let failed = subscribers
            subscribers = []
            switch extent {
            case .whileObserved: stopObserving()
            case .observationLifetime: lastResult = .failure(error)
            }
            for subscriber in failed {
                subscriber.onError(error)
            }
        }
    }

    private func unsubscribe(_ subscriber: Subscriber) {
        lock.withLock {
            subscribers.removeAll { $0 === subscriber }
            if subscribers.isEmpty && extent == .whileObserved {
                stopObserving()
            }
        }
    }

    private func stopObserving() {
        isObserving = false
        cancellable = nil
        lastResult = nil
    }
}
