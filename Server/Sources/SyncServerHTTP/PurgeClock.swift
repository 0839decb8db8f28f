import Foundation
import Synchronization

/// When expired tombstones were last purged, shared by the copies of the
/// API: a purge is due at most once a minute. `Sendable` through its mutex.
final class PurgeClock: Sendable {
    private let last = Mutex<Date>(.distantPast)

    /// Whether a purge is due at `now`; if so, it counts as done at `now`.
    func takeIfDue(at now: Date) -> Bool {
        last.withLock { last in
            guard now.timeIntervalSince(last) >= 60 else { return false }
            last = now
            return true
        }
    }
}
