import NIOCore
import Synchronization

/// The server's open connections, and which have no request in progress:
/// when a new connection brings them to the limit (`--max-connections`),
/// the one idle for longest is closed to make room, so that idle
/// connections, even thousands that never send a byte, cannot keep a
/// request out. Only connections that are all busy make new ones wait.
///
/// ```swift
/// let connections = OpenConnections(limit: 256)
/// // per connection: ConnectionSlotHandler(connections)
/// ```
final class OpenConnections: Sendable {
    let limit: Int

    private struct Entry {
        let channel: any Channel
        /// When the connection last became idle (an order, not a time);
        /// nil while a request is in progress.
        var idleSince: UInt64?
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var nextOrder: UInt64 = 0
    }

    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection, idle; closes the connection idle for
    /// longest if this one reaches the limit.
    func opened(_ channel: any Channel) {
        let victim: (any Channel)? = state.withLock { state in
            state.nextOrder += 1
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: state.nextOrder)
            guard state.entries.count >= limit else { return nil }
            var oldest: (key: ObjectIdentifier, since: UInt64)?
            for (key, entry) in state.entries where key != ObjectIdentifier(channel) {
                if let since = entry.idleSince, since < oldest?.since ?? .max { oldest = (key, since) }
            }
            guard let oldest else { return nil }
            // Closed once: no longer a candidate.
            state.entries[oldest.key]?.idleSince = nil
            return state.entries[oldest.key]?.channel
        }
        victim?.close(promise: nil)
    }

    /// A request began on the connection.
    func busy(_ channel: any Channel) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.idleSince = nil }
    }

    /// The connection's response ended: it waits for another request.
    func idle(_ channel: any Channel) {
        state.withLock { state in
            guard state.entries[ObjectIdentifier(channel)] != nil else { return }
            state.nextOrder += 1
            state.entries[ObjectIdentifier(channel)]?.idleSince = state.nextOrder
        }
    }

    func closed(_ channel: any Channel) {
        _ = state.withLock { $0.entries.removeValue(forKey: ObjectIdentifier(channel)) }
    }
}
