import Synchronization

/// The ``StoreChangeNotifier`` of each database file open in this process:
/// every ``ServerPlayersDatabase`` on one file shares one, so that a
/// commit through any of them (another connection pool, as another
/// server instance would have) wakes the long-polls of all. SQLite tells
/// no connection of another's commits; a file is served by one process.
enum FileChangeNotifiers {
    /// Held weakly: a notifier goes with the last database on its file.
    private struct WeakNotifier {
        weak var notifier: StoreChangeNotifier?
    }

    private static let notifiers = Mutex<[String: WeakNotifier]>([:])

    /// The notifier of the file at `path`, made with `latestVersion` if
    /// none is alive; an in-memory database (empty path) gets its own.
    static func notifier(forPath path: String, latestVersion: Int64) -> StoreChangeNotifier {
        guard !path.isEmpty, path != ":memory:" else { return StoreChangeNotifier(latestVersion: latestVersion) }
        return notifiers.withLock { notifiers in
            notifiers = notifiers.filter { $0.value.notifier != nil }
            if let notifier = notifiers[path]?.notifier {
                notifier.publish(latestVersion)
                return notifier
            }
            let notifier = StoreChangeNotifier(latestVersion: latestVersion)
            notifiers[path] = WeakNotifier(notifier: notifier)
            return notifier
        }
    }
}
