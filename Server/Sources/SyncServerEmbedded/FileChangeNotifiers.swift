import SyncServer
import Synchronization

/// The ``SyncServer/StoreChangeNotifier`` of each history of each database
/// file open in this process (each history of one file apart): every store on one file shares its history's notifier, so
/// that a commit through any of them (another connection pool, as another
/// server instance would have) wakes the long-polls of all. SQLite tells
/// no connection of another's commits; a file is served by one process.
///
/// ```swift
/// let changes = FileChangeNotifiers.notifier(forPath: writer.path, history: "engine", latestVersion: counter)
/// ```
public enum FileChangeNotifiers {
    /// Held weakly: a notifier goes with the last database on its file.
    private struct WeakNotifier {
        weak var notifier: StoreChangeNotifier?
    }

    private static let notifiers = Mutex<[String: WeakNotifier]>([:])

    /// The notifier of `history` in the file at `path`, made with
    /// `latestVersion` if none is alive; an in-memory database (empty
    /// path) gets its own.
    public static func notifier(forPath path: String, history: String, latestVersion: Int64) -> StoreChangeNotifier {
        guard !path.isEmpty, path != ":memory:" else { return StoreChangeNotifier(latestVersion: latestVersion) }
        let key = "\(history) \(path)"
        return notifiers.withLock { notifiers in
            notifiers = notifiers.filter { $0.value.notifier != nil }
            if let notifier = notifiers[key]?.notifier {
                notifier.publish(latestVersion)
                return notifier
            }
            let notifier = StoreChangeNotifier(latestVersion: latestVersion)
            notifiers[key] = WeakNotifier(notifier: notifier)
            return notifier
        }
    }
}
