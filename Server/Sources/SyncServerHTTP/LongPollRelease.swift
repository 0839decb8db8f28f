import Logging
import SyncServer
import ServiceLifecycle

/// Releases the server's long-polls when its graceful shutdown begins:
/// each answers at once (the empty delta, or the changes it has), so that
/// SIGINT or SIGTERM does not wait up to 60 s for them. Runs in the
/// service group before the application, which is shut down after it.
/// Logs how many it released (at `notice`), when any was held.
public struct LongPollRelease: Service {
    /// The notifiers of the stores served.
    let notifiers: [StoreChangeNotifier]
    let logger: Logger

    public init(_ notifiers: [StoreChangeNotifier], logger: Logger) {
        self.notifiers = notifiers
        self.logger = logger
    }

    public func run() async throws {
        // Returns when shutdown begins, or throws when the group is cancelled:
        // either way, nothing is held anymore.
        try? await gracefulShutdown()
        let released = notifiers.reduce(0) { $0 + $1.releaseAll() }
        if released > 0 {
            logger.notice("Answered the long-polls at once for the shutdown.", metadata: ["long_polls": "\(released)"])
        }
    }
}
