import Synchronization

/// A flag set once by one task and read by others.
public final class TestFlag: Sendable {
    private let value = Mutex(false)

    public init() {}

    public var isSet: Bool { value.withLock { $0 } }

    public func set() { value.withLock { $0 = true } }
}
