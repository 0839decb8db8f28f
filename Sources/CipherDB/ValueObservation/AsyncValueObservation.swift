/// The values of a ``ValueObservation``, as an async sequence: see
/// ``ValueObservation/values(in:scheduling:bufferingPolicy:)``. Each
/// iterator starts its own observation, which stops when the iteration
/// ends or its task is cancelled.
public struct AsyncValueObservation<Element: Sendable>: AsyncSequence, Sendable {
    public typealias BufferingPolicy = AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy
    public typealias AsyncIterator = Iterator

    let bufferingPolicy: BufferingPolicy

    /// Starts an observation with its error and value handlers.
    let start: @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream(bufferingPolicy: bufferingPolicy)
        let cancellable = start(
            { error in continuation.finish(throwing: error) },
            { value in continuation.yield(value) })
        // The iterator holds the cancellable: the observation stops when
        // the iteration ends.
        continuation.onTermination = { [weak cancellable] _ in cancellable?.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Element, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        public mutating func next() async throws -> Element? {
            try await base.next()
        }
    }
}
