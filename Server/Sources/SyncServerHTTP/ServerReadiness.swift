import Synchronization

/// Whether the server takes new work: not once its graceful shutdown has
/// begun, so that `GET /ready` answers 503 and load balancers send the
/// next requests elsewhere while those in progress finish.
public final class ServerReadiness: Sendable {
    private let draining = Mutex(false)

    public init() {}

    /// Whether the graceful shutdown has begun.
    public var isDraining: Bool {
        draining.withLock { $0 }
    }

    /// From now on, `GET /ready` answers 503.
    public func beginDraining() {
        draining.withLock { $0 = true }
    }
}
