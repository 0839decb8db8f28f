import Foundation
import Logging
@testable import PostgresClient
import ServerTestSupport
import Testing
import TestSupport

/// The store's PostgreSQL connection (libpq): values bound and read in the
/// binary format as PostgreSQL has them, its errors, its notifications,
/// and a close that ends a statement in progress.
@Suite(.hangGuard) struct PostgresConnectionTests {
    @Test func everyBoundTypeComesBackAsItWasSent() async throws {
        try await withConnection { connection in
            let uuid = UUID()
            let date = Date(timeIntervalSince1970: 1_790_000_000.123456)
            let text = "Zoé 🎲 'quoted' \"double\" \\ $1"
            let rows = try await connection.query(
                "SELECT \(uuid), \(text), \(Int.min), \(Int64.max), \(date), \(true), \(false)", logger: postgresTestLogger)
            let row = try #require(try rows.first((UUID, String, Int, Int64, Date, Bool, Bool).self))
            #expect(row.0 == uuid)
            #expect(row.1 == text)
            #expect(row.2 == Int.min)
            #expect(row.3 == Int64.max)
            #expect(row.4 == date)
            #expect(row.5 == true && row.6 == false)
        }
    }

    /// A prepared statement runs again by name with other values (one
    /// statement in pg_prepared_statements); past the most a connection
    /// prepares, a statement runs unprepared, as right.
    @Test func aPreparedStatementRunsAgainByNameAndPastTheMostOnesRunUnprepared() async throws {
        try await withConnection { connection in
            for value in [1, 2, 3] {
                let query = PostgresQuery("SELECT \(Int64(value)) * 2").prepared()
                let doubled = try await connection.query(query, logger: postgresTestLogger).first(Int64.self)
                #expect(doubled == Int64(value * 2))
            }
            let counted = PostgresQuery(unsafeSQL: "SELECT count(*) FROM pg_prepared_statements")
            let once = try await connection.query(counted, logger: postgresTestLogger).first(Int64.self)
            #expect(once == 1)
            for number in 0..<PostgresConnection.maximumPreparedStatements {
                _ = try await connection.query(PostgresQuery(unsafeSQL: "SELECT \(number)").prepared(), logger: postgresTestLogger)
            }
            let most = try await connection.query(counted, logger: postgresTestLogger).first(Int64.self)
            #expect(most == Int64(PostgresConnection.maximumPreparedStatements))
            let past = PostgresQuery(unsafeSQL: "SELECT 'past the most'").prepared()
            let answer = try await connection.query(past, logger: postgresTestLogger).first(String.self)
            #expect(answer == "past the most")
        }
    }

    @Test func noticesGoToTheLoggerAndWarningsAsWarnings() async throws {
        let log = RecordedLog()
        try await withConnection(logger: log.logger) { connection in
            try await connection.query(
                "DO $$ BEGIN RAISE NOTICE 'a notice for the log'; RAISE WARNING 'a warning for the log'; END $$", logger: postgresTestLogger)
        }
        let notices = log.messages.filter { $0.metadata["postgres_notice_severity"] != nil }
        #expect(notices.map(\.text) == ["PostgreSQL: a notice for the log", "PostgreSQL: a warning for the log"])
        #expect(notices.map(\.level) == [.debug, .warning])
        #expect(notices.allSatisfy { $0.metadata["postgres_connection_id"] == "1" })
    }

    @Test func arraysBindAsArraysEmptyOnesIncluded() async throws {
        try await withConnection { connection in
            let uuids = [UUID(), UUID(), UUID()]
            let names = ["a", "", "c, d", "{e}", "NULL"]
            let rows = try await connection.query(
                """
                SELECT cardinality(\(uuids)::uuid[]), (\(uuids)::uuid[])[3], cardinality(\(names)::text[]), (\(names)::text[])[4],
                       (\(names)::text[])[5] IS NULL, cardinality(\([Int64]())::bigint[]), \([Date(timeIntervalSince1970: 0)])::timestamptz[] IS NOT NULL
                """,
                logger: postgresTestLogger)
            let row = try #require(try rows.first((Int, UUID, Int, String, Bool, Int, Bool).self))
            #expect(row.0 == 3 && row.1 == uuids[2])
            #expect(row.2 == 5 && row.3 == "{e}" && row.4 == false)
            #expect(row.5 == 0 && row.6)
        }
    }

    @Test func nullReadsAsNilAndANilValueBindsAsNull() async throws {
        try await withConnection { connection in
            let none: UUID? = nil
            let rows = try await connection.query("SELECT \(none)::uuid IS NULL, NULL::text, 1::smallint, 2::integer", logger: postgresTestLogger)
            let row = try #require(try rows.first((Bool, String?, Int, Int64).self))
            #expect(row.0 && row.1 == nil && row.2 == 1 && row.3 == 2)
            #expect(throws: PostgresDecodingError.self) { try rows.decode((Bool, String, Int, Int64).self) }
        }
    }

    @Test func readingOtherColumnsThanTheStatementReturnsThrows() async throws {
        try await withConnection { connection in
            let rows = try await connection.query("SELECT 1, 'one'", logger: postgresTestLogger)
            let count = #expect(throws: PostgresDecodingError.self) { try rows.decode(Int.self) }
            #expect(count?.description == "the statement returned 2 columns, not the 1 read.")
            #expect(throws: PostgresDecodingError.self) { try rows.decode((String, String).self) }
        }
    }

    @Test func aRefusedStatementThrowsItsSQLStateAndTheConnectionServesOn() async throws {
        try await withConnection { connection in
            let error = await #expect(throws: PostgresServerError.self) {
                try await connection.query("SELECT * FROM no_such_table", logger: postgresTestLogger)
            }
            #expect(error?.sqlState == "42P01")
            #expect(error?.description.contains(#"relation "no_such_table" does not exist"#) == true)
            #expect(!connection.isClosed)
            let one: Int? = try await connection.query("SELECT 1", logger: postgresTestLogger).first(Int.self)
            #expect(one == 1)
        }
    }

    @Test func notificationsReachTheListeningConnection() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let url = try sandbox.postgresURL()
            let listener = try await PostgresConnection.connect(to: url, timeout: hangGuard, id: 1, logger: postgresTestLogger)
            let sender = try await PostgresConnection.connect(to: url, timeout: hangGuard, id: 2, logger: postgresTestLogger)
            defer { sender.close() }
            try await listener.query("LISTEN test_channel", logger: postgresTestLogger)
            let (notifications, received) = AsyncStream<PostgresNotification>.makeStream()
            let listening = Task { try await listener.waitForNotifications { received.yield($0) } }
            try await sender.query("SELECT pg_notify('test_channel', \("first"))", logger: postgresTestLogger)
            try await sender.query("SELECT pg_notify('other_channel', 'unheard')", logger: postgresTestLogger)
            try await sender.query("SELECT pg_notify('test_channel', \("second"))", logger: postgresTestLogger)
            var iterator = notifications.makeAsyncIterator()
            #expect(await iterator.next()?.payload == "first")
            #expect(await iterator.next()?.payload == "second")
            listener.close()
            await #expect(throws: PostgresStoreError.self) { try await listening.value }
        }
    }

    @Test func closingEndsAStatementInProgressAtOnce() async throws {
        try await withConnection { connection in
            let marker = UUID().uuidString
            let sleeping = Task {
                try await connection.query(PostgresQuery(unsafeSQL: "SELECT pg_sleep(3600) -- \(marker)"), logger: postgresTestLogger)
            }
            try await waitUntil("the statement to run") { try await runningStatements(marked: marker) == 1 }
            connection.close()
            let error = await #expect(throws: PostgresStoreError.self) { try await sleeping.value }
            #expect(error == .connectionClosed(endpoint: connection.endpoint) && error?.isUnavailable == true)
            #expect(connection.isClosed)
            await #expect(throws: PostgresStoreError.self) { try await connection.query("SELECT 1", logger: postgresTestLogger) }
        }
    }

    @Test func aConnectionThatPostgreSQLEndsIsFoundClosed() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let connection = try await PostgresConnection.connect(to: try sandbox.postgresURL(), timeout: hangGuard, id: 1, logger: postgresTestLogger)
            let closed = Flag()
            connection.whenClosed { closed.set() }
            try await sandbox.dropPostgresConnections()
            let error = await #expect(throws: PostgresStoreError.self) { try await connection.query("SELECT 1", logger: postgresTestLogger) }
            guard case .connectionLost(let endpoint, _)? = error else { Issue.record("\(String(describing: error))"); return }
            #expect(endpoint == (try sandbox.postgresURL().endpointDescription))
            #expect(connection.isClosed)
            #expect(closed.isSet)
        }
    }
}

/// Runs `body` with a connection to a new sandbox's database, closed
/// afterwards.
private func withConnection(logger: Logger = postgresTestLogger, _ body: (PostgresConnection) async throws -> Void) async throws {
    try await StoreSandbox.with(.postgres) { sandbox in
        let connection = try await PostgresConnection.connect(to: try sandbox.postgresURL(), timeout: hangGuard, id: 1, logger: logger)
        defer { connection.close() }
        try await body(connection)
    }
}

/// How many other backends of the cluster run a statement that holds
/// `marker`.
private func runningStatements(marked marker: String) async throws -> Int {
    let url = try PostgresURL(try StoreSandbox.postgresURLString())
    let connection = try await PostgresConnection.connect(to: url, timeout: hangGuard, id: 0, logger: postgresTestLogger)
    defer { connection.close() }
    return try await connection.query(
        """
        SELECT count(*)::int FROM pg_stat_activity
        WHERE strpos(query, \(marker)) > 0 AND state = 'active' AND pid <> pg_backend_pid()
        """, logger: postgresTestLogger
    ).first(Int.self) ?? 0
}
