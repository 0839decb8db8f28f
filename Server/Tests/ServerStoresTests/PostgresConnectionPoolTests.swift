import Foundation
import PlayersOnServer
import PlayersShared
import PostgresClient
import ServerTestSupport
import SyncServerPostgres
import TestSupport
import Testing

/// The PostgreSQL store's pool of connections: every wait ends, and says
/// what it waited for; a connection that PostgreSQL closed is never lent.
@Suite(.hangGuard) struct PostgresConnectionPoolTests {
    @Test func aRequestThatFindsEveryConnectionHeldFailsSayingSo() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let pool = try oneConnectionPool(sandbox)
            // The one connection is held until the second request has failed.
            let (released, release) = AsyncStream<Void>.makeStream()
            let holder = try await holdTheOnlyConnection(of: pool, until: released)
            let error = await #expect(throws: PostgresStoreError.self) { try await pool.withConnection(leaseTimeout: .seconds(1)) { _ in } }
            #expect(error == .noFreeConnection(seconds: 1, connections: 1))
            #expect(error?.description == "no PostgreSQL connection was free within 1 s: all 1 were in use.")
            release.finish()
            try await holder.value
            #expect(try await pool.withConnection { try await backendID($0) } > 0)
            await pool.close()
        }
    }

    @Test func anOperationThatOutlastsItsTimeoutFailsAndThePoolServesOn() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let url = try sandbox.postgresURL()
            let pool = try oneConnectionPool(sandbox, operationTimeout: .seconds(1))
            let error = await #expect(throws: PostgresStoreError.self) {
                try await pool.withConnection { connection in
                    try await connection.query("SELECT pg_sleep(3600)", logger: postgresTestLogger)
                }
            }
            #expect(error == .noAnswer(endpoint: url.endpointDescription, seconds: 1))
            #expect(error?.description == "PostgreSQL at \(url.endpointDescription) did not answer within 1 s.")
            #expect(try await pool.withConnection(operationTimeout: hangGuard) { try await backendID($0) } > 0)
            await pool.close()
        }
    }

    @Test func aConnectionThatPostgreSQLClosedWhileIdleIsReplacedWithoutAnError() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let pool = try oneConnectionPool(sandbox)
            let first = try await pool.withTransaction(logger: postgresTestLogger) { try await backendID($0) }
            try await sandbox.dropPostgresConnections()
            try await waitUntil("PostgreSQL to end the pool's connection", every: .milliseconds(100)) {
                try await sandbox.postgresConnectionCount() == 0
            }
            let second = try await pool.withTransaction(logger: postgresTestLogger) { try await backendID($0) }
            #expect(second != first)
            await pool.close()
        }
    }

    @Test func aDatabaseThatRefusesConnectionsFailsARequestWithItsReason() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let url = try sandbox.postgresURL()
            let pool = PostgresConnectionPool(url: url, connectTimeout: hangGuard, leaseTimeout: hangGuard, logger: postgresTestLogger)
            try await sandbox.refuseConnections()
            let error = await #expect(throws: PostgresStoreError.self) { try await pool.withConnection { _ in } }
            guard case .refused(let endpoint, _, let sqlState)? = error else { Issue.record("\(String(describing: error))"); return }
            #expect(endpoint == url.endpointDescription && sqlState != nil)
            #expect(error?.description.hasPrefix("PostgreSQL at \(url.endpointDescription) refused the connection: ") == true)
            await pool.close()
        }
    }

    /// A store closed at once after its start closes while its listening
    /// connection is still being made: PostgresNIO then never answered the
    /// listener's first statement, and `close()` waited for ever (it hung
    /// within 50 cycles on two loaded cores).
    @Test func storesClosedRightAfterTheyStartEndAndLeaveNoConnection() async throws {
        // 3 × 100 cycles in the long tier: 900 passed the five-minute hang
        // guard once while both packages' long tiers loaded the machine
        // (27 s alone, 123 s in the server's long tier).
        let cycles = TestTier.current.size(correctness: 30, long: 100)
        try await StoreSandbox.with(.postgres) { sandbox in
            let url = try sandbox.postgresURL()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        for _ in 0..<cycles {
                            let store = PlayersTestStore(try await PostgresSyncStore(url: url, schema: PlayersSchema.schema, connectTimeout: hangGuard, logger: postgresTestLogger))
                            _ = try await store.allPlayers()
                            try await store.close()
                        }
                    }
                }
                try await group.waitForAll()
            }
            try await waitUntil("the closed stores' connections to end", every: .milliseconds(100)) {
                try await sandbox.postgresConnectionCount() == 0
            }
        }
    }

    @Test func closingThePoolFailsTheRequestsThatWait() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let pool = try oneConnectionPool(sandbox)
            let (released, release) = AsyncStream<Void>.makeStream()
            let holder = try await holdTheOnlyConnection(of: pool, until: released)
            let waiter = Task { try await pool.withConnection { _ in } }
            try await waitUntil("the second request to wait") { pool.waitingRequestCount == 1 }
            await pool.close()
            await #expect(throws: PostgresStoreError.self) { try await waiter.value }
            release.finish()
            try await holder.value
            await #expect(throws: PostgresStoreError.self) { try await pool.withConnection { _ in } }
        }
    }
}

/// A pool of one connection to the sandbox's database, whose requests wait
/// for it as long as a hang guard (operations: the pool's default limit).
private func oneConnectionPool(_ sandbox: StoreSandbox, operationTimeout: Duration = .seconds(60)) throws -> PostgresConnectionPool {
    PostgresConnectionPool(
        url: try sandbox.postgresURL(), maximumConnections: 1, connectTimeout: hangGuard, leaseTimeout: hangGuard,
        operationTimeout: operationTimeout, logger: postgresTestLogger)
}

/// Starts a task that holds the pool's one connection until `released`
/// ends, and returns once it holds it; throws what the task threw if it
/// could not.
private func holdTheOnlyConnection(
    of pool: PostgresConnectionPool, until released: AsyncStream<Void>
) async throws -> Task<Void, any Error> {
    let (held, hold) = AsyncStream<Void>.makeStream()
    let holder = Task {
        defer { hold.finish() }
        try await pool.withConnection { _ in
            hold.yield()
            for await _ in released {}
        }
    }
    var holding = held.makeAsyncIterator()
    guard await holding.next() != nil else {
        try await holder.value
        throw TestFailure("the holder ended without holding the connection")
    }
    return holder
}

/// The process id of the connection's backend.
private func backendID(_ connection: PostgresConnection) async throws -> Int {
    for id in try await connection.query("SELECT pg_backend_pid()::int", logger: postgresTestLogger).decode(Int.self) {
        return id
    }
    throw TestFailure("pg_backend_pid() returned no row")
}
