import CPostgres
import Dispatch
import Foundation
import Logging
import Synchronization

/// One connection to PostgreSQL, through libpq: statements with bound
/// parameters, results in the binary format, notifications, and a close
/// that ends at once whatever the connection is waiting for.
///
/// libpq's calls block, so each connection runs them on a serial queue of
/// its own, off Swift's cooperative threads: one statement at a time, in
/// the order they were asked. A wait for the network (``query(_:logger:)``,
/// ``waitForNotifications(_:)``) also wakes when ``close()`` is called, so
/// no statement holds its caller past a close, whatever PostgreSQL or the
/// network do.
///
/// ```swift
/// let connection = try await PostgresConnection.connect(to: url, timeout: .seconds(10), id: 1, logger: logger)
/// let rows = try await connection.query("SELECT name FROM player WHERE score > \(100)", logger: logger)
/// for name in try rows.decode(String.self) { print(name) }
/// connection.close()
/// ```
package final class PostgresConnection: @unchecked Sendable {
    // @unchecked: `connection`, libpq's PGconn, which is not thread-safe, is
    // only used by work that runs on `queue`, one item at a time, and that
    // checks `state` first, under its lock; `close()` only writes to the
    // eventfd `wake` (thread-safe) and changes `state`, and leaves the
    // PGconn's end to the queue. `finished` is only read and set on the
    // queue, and in `deinit`, when no work holds the connection.
    private struct State {
        var isClosed = false
        var onClose: (@Sendable () -> Void)?
    }

    /// The number that logs name this connection by.
    package let id: Int
    /// `host:port`, for messages.
    let endpoint: String
    private let connection: OpaquePointer
    private let queue: DispatchQueue
    private let wake: Int32
    /// Called by libpq until `PQfinish`: kept as long as the PGconn.
    private let notices: PostgresNoticeLog
    private let state = Mutex(State())
    private var finished = false
    /// The names of the statements prepared on the connection, by their
    /// SQL; only used on `queue`.
    private var preparedNames: [String: String] = [:]

    /// The most statements a connection prepares; later ones run unprepared,
    /// so that no text made anew each time fills PostgreSQL's memory.
    package static let maximumPreparedStatements = 128

    init(connection: OpaquePointer, queue: DispatchQueue, wake: Int32, notices: PostgresNoticeLog, id: Int, endpoint: String) {
        self.connection = connection
        self.queue = queue
        self.wake = wake
        self.notices = notices
        self.id = id
        self.endpoint = endpoint
    }

    deinit {
        if !finished { PQfinish(connection) }
        Glibc.close(wake)
    }

    /// Whether the connection is closed: by ``close()``, or found lost.
    package var isClosed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Calls `handler` once, when the connection closes (at once if it is
    /// closed). A second call replaces the first's handler.
    package func whenClosed(_ handler: @escaping @Sendable () -> Void) {
        let isClosed = state.withLock { state in
            if !state.isClosed { state.onClose = handler }
            return state.isClosed
        }
        if isClosed { handler() }
    }

    /// Closes the connection: a statement or a wait in progress ends with
    /// an error at once, and later ones throw. Any number of calls, from
    /// any thread.
    package func close() {
        guard let handler = markClosed() else { return }
        handler()
    }

    /// Marks the connection closed and wakes its wait; returns the close
    /// handler (a no-op one when none is set), or nil when it was closed
    /// already.
    private func markClosed() -> (@Sendable () -> Void)? {
        let handler = state.withLock { state -> (@Sendable () -> Void)?? in
            guard !state.isClosed else { return .none }
            state.isClosed = true
            defer { state.onClose = nil }
            return .some(state.onClose)
        }
        guard let handler else { return nil }
        var one: UInt64 = 1
        _ = Glibc.write(wake, &one, MemoryLayout<UInt64>.size)
        queue.async { [self] in
            PQfinish(connection)
            finished = true
        }
        return handler ?? {}
    }

    // MARK: - Statements

    /// Runs one statement, and returns its rows (none for a statement that
    /// returns none). Throws ``PostgresServerError`` for a statement that
    /// PostgreSQL refuses, and ``PostgresStoreError`` when the connection
    /// is closed or lost (PostgreSQL's restart, the network).
    @discardableResult
    package func query(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRows {
        logger.trace("PostgreSQL statement", metadata: ["postgres_connection_id": "\(id)", "postgres_statement": "\(query.sql)"])
        return try await onQueue { [self] in try execute(query) }
    }

    /// Calls `receive` with each notification of the channels this
    /// connection listens to (`LISTEN`), those received already first,
    /// until the connection is closed or lost: then it throws.
    package func waitForNotifications(_ receive: @escaping @Sendable (PostgresNotification) -> Void) async throws {
        try await onQueue { [self] in
            while true {
                try checkOpen()
                while let notification = PQnotifies(connection) {
                    receive(PostgresNotification(
                        channel: String(cString: notification.pointee.relname),
                        payload: String(cString: notification.pointee.extra)))
                    PQfreemem(notification)
                }
                try waitForSocket(Int16(POLLIN))
                guard PQconsumeInput(connection) == 1 else { throw lost() }
            }
        }
    }

    /// Runs `work` on the connection's queue.
    private func onQueue<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }

    /// On the queue: sends the statement (prepared first, the first time,
    /// when it asks to be), and reads every result.
    private func execute(_ query: PostgresQuery) throws -> PostgresRows {
        try checkOpen()
        let name = try preparedName(of: query)
        guard try send(query, prepared: name) == 1 else { throw lost() }
        return try results()
    }

    /// The name of the statement prepared for `query` on the connection,
    /// prepared now if need be; nil for a statement that runs unprepared.
    private func preparedName(of query: PostgresQuery) throws -> String? {
        guard query.isPrepared else { return nil }
        if let name = preparedNames[query.sql] { return name }
        guard preparedNames.count < Self.maximumPreparedStatements else { return nil }
        let name = "s\(preparedNames.count + 1)"
        let types = query.bindings.map { Oid($0.type.rawValue) }
        guard PQsendPrepare(connection, name, query.sql, Int32(types.count), types) == 1 else { throw lost() }
        _ = try results()
        preparedNames[query.sql] = name
        return name
    }

    /// On the queue: reads every result of the statement sent.
    private func results() throws -> PostgresRows {
        try flush()
        var rows: PostgresRows?
        var failure: (any Error)?
        while let result = try nextResult() {
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                rows = PostgresRows(result)
            default:
                failure = failure ?? PostgresServerError(result)
                PQclear(result)
            }
        }
        if PQstatus(connection) == CONNECTION_BAD { throw lost() }
        if let failure { throw failure }
        guard let rows else { throw lost() }
        return rows
    }

    /// Hands the statement (or the name it was prepared with) and its
    /// parameters to libpq; its answer.
    private func send(_ query: PostgresQuery, prepared name: String?) throws -> Int32 {
        let bindings = query.bindings
        let types = bindings.map { Oid($0.type.rawValue) }
        let lengths = bindings.map { Int32($0.bytes?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: bindings.count)
        // Every value in one buffer, each parameter pointing into it.
        var offsets: [Int] = []
        var buffer: [UInt8] = []
        for binding in bindings {
            offsets.append(buffer.count)
            buffer.append(contentsOf: binding.bytes ?? [])
        }
        buffer.append(0)
        return buffer.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = zip(bindings, offsets).map { binding, offset in
                binding.bytes == nil ? nil : base + offset
            }
            if let name {
                return PQsendQueryPrepared(connection, name, Int32(bindings.count), values, lengths, formats, 1)
            }
            return PQsendQueryParams(connection, query.sql, Int32(bindings.count), types, values, lengths, formats, 1)
        }
    }

    /// Writes what libpq holds of the statement to the socket.
    private func flush() throws {
        while true {
            switch PQflush(connection) {
            case 0: return
            case 1:
                let ready = try waitForSocket(Int16(POLLIN | POLLOUT))
                if ready & Int16(POLLIN) != 0, PQconsumeInput(connection) != 1 { throw lost() }
            default: throw lost()
            }
        }
    }

    /// The next result of the statement sent, once PostgreSQL sent it
    /// whole; nil after the last.
    private func nextResult() throws -> OpaquePointer? {
        while PQisBusy(connection) == 1 {
            try waitForSocket(Int16(POLLIN))
            guard PQconsumeInput(connection) == 1 else { throw lost() }
        }
        return PQgetResult(connection)
    }

    /// Waits until the socket is ready for `events` (its events that are),
    /// or throws when the connection is closed meanwhile.
    @discardableResult
    private func waitForSocket(_ events: Int16) throws -> Int16 {
        let socket = PQsocket(connection)
        guard socket >= 0 else { throw lost() }
        var descriptors = [pollfd(fd: socket, events: events, revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { throw lost() }
            if descriptors[1].revents != 0 { throw closedError() }
            // An error or a hang-up is read by libpq, which says what it was.
            return descriptors[0].revents
        }
    }

    private func checkOpen() throws {
        if state.withLock({ $0.isClosed }) { throw closedError() }
    }

    /// The error of a connection that this program closed.
    private func closedError() -> PostgresStoreError {
        PostgresStoreError.connectionClosed(endpoint: endpoint)
    }

    /// Marks the connection lost (PostgreSQL closed it, or the network
    /// failed), and returns its error.
    private func lost() -> PostgresStoreError {
        let reason = Self.firstLine(of: PQerrorMessage(connection))
        markClosed()?()
        return PostgresStoreError.connectionLost(endpoint: endpoint, reason: reason)
    }

    /// The first line of one of libpq's messages, without its full stop.
    static func firstLine(of message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        var line = (String(cString: message).split(separator: "\n").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
        if line.hasSuffix(".") { line.removeLast() }
        return line
    }
}

/// A notification that a `NOTIFY` or `pg_notify` sent to a channel.
package struct PostgresNotification: Sendable {
    package var channel: String
    package var payload: String
}
