import PlayersServerStore
import ServiceLifecycle

/// Releases the server's long-polls when its graceful shutdown begins:
/// each answers at once (the empty delta, or the changes it has), so that
/// SIGINT or SIGTERM does not wait up to 60 s for them. Runs in the
/// service group before the application, which is shut down after it.
public struct LongPollRelease: Service {
    let changes: StoreChangeNotifier

    public init(_ changes: StoreChangeNotifier) {
        self.changes = changes
    }

    public func run() async throws {
        // Returns when shutdown begins, or throws when the group is cancelled:
        // either way, nothing is held anymore.
        try? await gracefulShutdown()
        changes.releaseAll()
    }
}
