import Logging
import TestSupport

/// The statements that PostgreSQL stores send, each a round trip, as
/// their connections' trace log tells them: a test opens a store with
/// ``logger`` and counts the statements of one of its transactions.
///
/// ```swift
/// let log = PostgresStatementLog()
/// let store = try await PostgresSyncStore(url: url, schema: schema, connectTimeout: hangGuard, logger: log.logger)
/// let statements = try await log.transaction { _ = try await store.applyChanges(changes, at: Date()) }
/// ```
public final class PostgresStatementLog: Sendable {
    private let log = RecordedLog()

    public init() {}

    /// A logger at trace level that records what the stores log.
    public var logger: Logger { log.logger }

    /// The statements of the one transaction that `body` runs, BEGIN and
    /// COMMIT included, in order: those of the connection that began it
    /// (others, such as the one listening for changes, may send their own
    /// meanwhile).
    public func transaction(_ body: () async throws -> Void) async throws -> [String] {
        let start = log.messages.count
        try await body()
        // Logged by a connection before it sends a statement (its parse,
        // bind, execute and sync: one round trip).
        let sent = log.messages.dropFirst(start).compactMap { message -> (connection: String, statement: String)? in
            guard let statement = message.metadata["postgres_statement"].map({ "\($0)" }) else { return nil }
            return (message.metadata["postgres_connection_id"].map { "\($0)" } ?? "", statement)
        }
        let begun = sent.filter { $0.statement.contains("BEGIN") }
        guard begun.count == 1, let connection = begun.first?.connection else {
            throw TestFailure("\(begun.count) transactions began instead of one: \(sent.map(\.statement))")
        }
        return sent.filter { $0.connection == connection }.map(\.statement)
    }
}
