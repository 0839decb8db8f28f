import Synchronization

/// A type that stops an observation.
public protocol DatabaseCancellable: Sendable {
    func cancel()
}

/// Stops an observation when cancelled, or when it is deallocated.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue) { error in … } onChange: { players in … }
/// cancellable.cancel()
/// ```
///
/// The cancellation runs once, and is released once it has run, with
/// what it holds (a ``SharedValueObservation`` that its subscription keeps
/// alive).
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    public init(cancel: @escaping @Sendable () -> Void) {
        cancellation = Mutex(cancel)
    }

    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init(cancel: cancellable.cancel)
    }

    deinit {
        cancel()
    }

    public func cancel() {
        // Taken out of the mutex first: the cancellation may release the
        // last reference to another cancellable, which cancels in turn.
        let cancellation = cancellation.withLock { cancellation in
            defer { cancellation = nil }
            return cancellation
        }
        cancellation?()
    }
}
