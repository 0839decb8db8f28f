import Synchronization

/// A connection of a ``PostgresConnectionPool``, which tells the operation
/// holding it when it closes: one handler on the connection's close, set
/// once, rather than one more per operation on a connection that may serve
/// millions.
package final class PooledConnection: Sendable {
    package let connection: PostgresConnection
    private let state = Mutex<(isClosed: Bool, onClose: (@Sendable () -> Void)?)>((false, nil))

    package init(_ connection: PostgresConnection) {
        self.connection = connection
        // The handler holds `self` until the connection closes, which every
        // connection of a pool does.
        connection.whenClosed { self.closed() }
    }

    /// Whether the connection is closed or closing.
    package var isClosed: Bool {
        connection.isClosed || state.withLock { $0.isClosed }
    }

    /// Calls `handler` when the connection closes (at once if it is closed),
    /// until ``stopWatching()``.
    package func watchClose(_ handler: @escaping @Sendable () -> Void) {
        let isClosed = state.withLock { state in
            state.onClose = handler
            return state.isClosed
        }
        if isClosed { handler() }
    }

    package func stopWatching() {
        state.withLock { $0.onClose = nil }
    }

    /// Closes the connection: a statement it runs ends at once.
    package func close() {
        state.withLock { $0.isClosed = true }
        connection.close()
    }

    private func closed() {
        let handler = state.withLock { state in
            state.isClosed = true
            return state.onClose
        }
        handler?()
    }
}
