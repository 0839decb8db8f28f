import Logging
import Synchronization
import TestSupport

/// The statements that PostgreSQL stores send, each a round trip, as
/// their connections' trace log tells them: a test opens a store with
/// ``logger`` and counts the statements of one of its transactions.
///
/// ```swift
/// let log = PostgresStatementLog()
/// let store = try await PostgresPlayersStore(url: url, logger: log.logger)
/// let statements = try await log.transaction { _ = try await store.applyChanges(batch) }
/// ```
public final class PostgresStatementLog: Sendable {
    private let statements = Mutex<[(connection: String, statement: String)]>([])

    public init() {}

    /// A logger at trace level that records the statements sent.
    public var logger: Logger {
        var logger = Logger(label: "players-server.postgres") { [self] _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The statements of the one transaction that `body` runs, BEGIN and
    /// COMMIT included, in order: those of the connection that began it
    /// (others, such as the one listening for changes, may send their own
    /// meanwhile).
    public func transaction(_ body: () async throws -> Void) async throws -> [String] {
        statements.withLock { $0 = [] }
        try await body()
        let sent = statements.withLock { $0 }
        let begun = sent.filter { $0.statement.contains("BEGIN") }
        guard begun.count == 1, let connection = begun.first?.connection else {
            throw TestFailure("\(begun.count) transactions began instead of one: \(sent.map(\.statement))")
        }
        return sent.filter { $0.connection == connection }.map(\.statement)
    }

    private struct Handler: LogHandler {
        let log: PostgresStatementLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            // Logged by a connection before it sends a statement (its parse,
            // bind, execute and sync: one round trip).
            guard let statement = event.metadata?["postgres_statement"].map({ "\($0)" }) else { return }
            let connection = event.metadata?["postgres_connection_id"].map { "\($0)" } ?? ""
            log.statements.withLock { $0.append((connection, statement)) }
        }
    }
}
