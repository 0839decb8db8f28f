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
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let cancellation: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancellation = cancel
    }

    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init(cancel: cancellable.cancel)
    }

    deinit {
        cancellation()
    }

    public func cancel() {
        cancellation()
    }
}
