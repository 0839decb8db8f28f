import Logging
import PlayersServerStore
import ServiceLifecycle

/// Releases the server's long-polls when its graceful shutdown begins:
/// each answers at once (the empty delta, or the changes it has), so that
/// SIGINT or SIGTERM does not wait up to 60 s for them. Runs in the
/// service group before the application, which is shut down after it.
/// Logs how many it released (at `notice`), when any was held.
public struct LongPollRelease: Service {
    let changes: StoreChangeNotifier
    let logger: Logger

    public init(_ changes: StoreChangeNotifier, logger: Logger) {
        self.changes = changes
        self.logger = logger
    }

    public func run() async throws {
        // Returns when shutdown begins, or throws when the group is cancelled:
        // either way, nothing is held anymore.
        try? await gracefulShutdown()
        let released = changes.releaseAll()
        if released > 0 {
            logger.notice("Answered the long-polls at once for the shutdown.", metadata: ["long_polls": "\(released)"])
        }
    }
}
