import CPostgres
import Dispatch
import Foundation
import Logging

extension PostgresConnection {
    /// Connects to `url`, TLS and authentication included, within
    /// `timeout`; throws one ``PostgresStoreError`` sentence that says why
    /// it could not (``PostgresStoreError/init(connectingTo:libpqMessage:)``).
    package static func connect(to url: PostgresURL, timeout: Duration, id: Int, logger: Logger) async throws -> PostgresConnection {
        logger.trace("Connecting to PostgreSQL", metadata: ["postgres_connection_id": "\(id)"])
        let queue = DispatchQueue(label: "players-server.postgres.\(id)")
        let deadline = ContinuousClock.now + timeout
        let connection = try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    let wake = try eventDescriptor()
                    let notices = PostgresNoticeLog(logger: logger, connectionID: id)
                    do {
                        return PostgresConnection(connection: try open(url, notices: notices, until: deadline, timeout: timeout),
                                                  queue: queue, wake: wake, notices: notices, id: id, endpoint: url.endpointDescription)
                    } catch {
                        Glibc.close(wake)
                        throw error
                    }
                })
            }
        }
        logger.trace("Connected to PostgreSQL", metadata: ["postgres_connection_id": "\(id)"])
        return connection
    }

    /// A PGconn that has finished its start (TLS, authentication), in
    /// non-blocking mode, its notices given to `notices`, or the error that
    /// says why there is none.
    private static func open(_ url: PostgresURL, notices: PostgresNoticeLog, until deadline: ContinuousClock.Instant,
                             timeout: Duration) throws -> OpaquePointer {
        let parameters = url.connectionParameters
        let keywords = parameters.map { strdup($0.key) }
        let values = parameters.map { strdup($0.value) }
        defer {
            // The password is among them: wipe before freeing.
            for pointer in keywords + values {
                if let pointer { memset(pointer, 0, strlen(pointer)) }
                free(pointer)
            }
        }
        let connection: OpaquePointer? = (keywords + [nil]).map { UnsafePointer($0) }.withUnsafeBufferPointer { keywords in
            (values + [nil]).map { UnsafePointer($0) }.withUnsafeBufferPointer { values in
                PQconnectStartParams(keywords.baseAddress, values.baseAddress, 0)
            }
        }
        guard let connection else { throw PostgresStoreError.systemResource("libpq has no memory for a connection") }
        notices.install(on: connection)
        do {
            try finishStart(connection, url, until: deadline, timeout: timeout)
        } catch {
            PQfinish(connection)
            throw error
        }
        return connection
    }

    /// Drives libpq's start of `connection` until it is made, failed or
    /// past the deadline.
    private static func finishStart(_ connection: OpaquePointer, _ url: PostgresURL, until deadline: ContinuousClock.Instant,
                                    timeout: Duration) throws {
        // The SQLSTATE of a refusal, in libpq's message.
        PQsetErrorVerbosity(connection, PQERRORS_VERBOSE)
        var polling = PGRES_POLLING_WRITING
        if PQstatus(connection) == CONNECTION_BAD { polling = PGRES_POLLING_FAILED }
        while true {
            switch polling {
            case PGRES_POLLING_OK:
                PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
                guard PQsetnonblocking(connection, 1) == 0 else {
                    throw PostgresStoreError(connectingTo: url, libpqMessage: PQerrorMessage(connection))
                }
                return
            case PGRES_POLLING_FAILED:
                throw PostgresStoreError(connectingTo: url, libpqMessage: PQerrorMessage(connection))
            case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                let events = polling == PGRES_POLLING_READING ? POLLIN : POLLOUT
                var descriptor = pollfd(fd: PQsocket(connection), events: Int16(events), revents: 0)
                let remaining = ContinuousClock.now.duration(to: deadline)
                let milliseconds = max(0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
                let ready = poll(&descriptor, 1, Int32(clamping: milliseconds))
                if ready < 0, errno == EINTR { continue }
                if ready == 0 {
                    throw PostgresStoreError.noAnswer(endpoint: url.endpointDescription, seconds: timeout.components.seconds)
                }
            default:
                throw PostgresStoreError(connectingTo: url, libpqMessage: PQerrorMessage(connection))
            }
            polling = PQconnectPoll(connection)
        }
    }

    /// The eventfd that ``close()`` writes to, to wake a wait.
    private static func eventDescriptor() throws -> Int32 {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw PostgresStoreError.systemResource("no eventfd: \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}
