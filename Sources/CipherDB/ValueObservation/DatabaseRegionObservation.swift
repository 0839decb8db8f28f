import Synchronization

/// Notifies each commit that changes a database region.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Table("player"))
/// let cancellable = observation.start(in: dbQueue) { error in … } onChange: { db in
///     print("players were changed")
/// }
/// ```
public struct DatabaseRegionObservation: Sendable {
    let regions: [any DatabaseRegionConvertible]

    /// Observes the union of the regions.
    public init(tracking regions: any DatabaseRegionConvertible...) {
        self.regions = regions
    }

    /// Observes the union of the regions.
    public init(tracking regions: [any DatabaseRegionConvertible]) {
        self.regions = regions
    }

    /// Starts observing: `onChange` runs on the writer's queue after each
    /// commit that changed the region, with the connection. The observer is
    /// registered before `start` returns, in an access of the writer (which
    /// it waits for, or joins if it runs in one), as in GRDB: every commit
    /// that follows is seen.
    public func start(
        in writer: some DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void) -> AnyDatabaseCancellable
    {
        let registration = RegionObservationRegistration()
        writer.unsafeReentrantWrite { db in
            do {
                let region = try regions.databaseRegion(db).observableRegion(db)
                // Runs on the writer's queue, inside the commit's access.
                let observer = RegionChangeObserver(region: region, onChange: onChange)
                if registration.register(observer) {
                    db.add(transactionObserver: observer, extent: .databaseLifetime)
                }
            } catch {
                onError(error)
            }
        }
        return AnyDatabaseCancellable {
            if let observer = registration.cancel() {
                writer.asyncWriteWithoutTransaction { db in db.remove(transactionObserver: observer) }
            }
        }
    }

    /// The commits that change the region, as an async sequence of `Void`
    /// values (the connection cannot leave its queue). Notifications are
    /// coalesced when the consumer is slower than the commits.
    public func values(in writer: some DatabaseWriter) -> AsyncThrowingStream<Void, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Void, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let cancellable = start(in: writer) { error in
            continuation.finish(throwing: error)
        } onChange: { _ in
            continuation.yield(())
        }
        continuation.onTermination = { _ in cancellable.cancel() }
        return stream
    }
}

/// The observer of a started ``DatabaseRegionObservation``, which may be
/// cancelled before it is registered. `Sendable` through its mutex.
final class RegionObservationRegistration: Sendable {
    private struct State: ~Copyable {
        var isCancelled = false
        var observer: RegionChangeObserver?
    }

    private let state = Mutex(State())

    /// Keeps the observer; returns false if the observation was cancelled.
    func register(_ observer: RegionChangeObserver) -> Bool {
        state.withLock { state in
            guard !state.isCancelled else { return false }
            state.observer = observer
            return true
        }
    }

    /// Marks the observation cancelled; returns the observer to remove.
    func cancel() -> RegionChangeObserver? {
        state.withLock { state in
            state.isCancelled = true
            defer { state.observer = nil }
            return state.observer
        }
    }
}
