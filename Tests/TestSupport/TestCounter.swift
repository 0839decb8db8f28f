import Synchronization

/// A count that tasks and threads add to, and a test reads: how many of
/// them reached a point, for a wait on that condition.
public final class TestCounter: Sendable {
    private let count = Mutex(0)

    public init() {}

    public var value: Int { count.withLock { $0 } }

    public func increment() { count.withLock { $0 += 1 } }
}
