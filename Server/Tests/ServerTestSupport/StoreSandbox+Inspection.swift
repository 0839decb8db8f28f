import CipherDB
import Foundation
import PlayersServerPostgres
import PlayersServerStore
import PostgresNIO

extension StoreSandbox {
    /// Moves every tombstone and recorded mutation id `seconds` into the
    /// past, as if they had been written then: the retention then expires
    /// them without waiting.
    public func ageTombstones(by seconds: Int) async throws {
        switch kind {
        case .embedded:
            let pool = try embeddedPool()
            try await pool.write { db in
                try db.execute(
                    sql: "UPDATE tombstone SET deletedAt = strftime('%Y-%m-%d %H:%M:%f', deletedAt, ?)", arguments: ["-\(seconds) seconds"])
                try db.execute(
                    sql: "UPDATE appliedMutation SET appliedAt = strftime('%Y-%m-%d %H:%M:%f', appliedAt, ?)", arguments: ["-\(seconds) seconds"])
            }
            try pool.close()
        case .postgres:
            try await Self.withClient(try postgresURL()) { client in
                try await client.query("UPDATE tombstone SET deleted_at = deleted_at - make_interval(secs => \(seconds))")
                try await client.query("UPDATE applied_mutation SET applied_at = applied_at - make_interval(secs => \(seconds))")
            }
        }
    }

    /// Closes, from the server's side, every connection of the stores to
    /// the sandbox's PostgreSQL database (their listening ones included),
    /// as a restart of PostgreSQL or a network failure would.
    public func dropPostgresConnections() async throws {
        try await Self.withClient(try postgresURL()) { client in
            try await client.query(
                "SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        }
    }

    /// How many connections the sandbox's PostgreSQL database has, other
    /// than the one that counts them.
    public func postgresConnectionCount() async throws -> Int {
        var count = 0
        try await Self.withClient(try postgresURL()) { client in
            let rows = try await client.query(
                "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
            for try await value in rows.decode(Int.self) { count = value }
        }
        return count
    }

    /// What is wrong with the stored players, as sentences; empty when
    /// nothing is: on both stores, every version is unique among players
    /// and tombstones and none is above the counter; on the embedded
    /// store, SQLite's integrity check passes too.
    public func storeProblems() async throws -> [String] {
        let versionsQuery = "SELECT version FROM player UNION ALL SELECT version FROM tombstone"
        var versions: [Int64] = []
        var counter: Int64 = 0
        var problems: [String] = []
        switch kind {
        case .embedded:
            let pool = try embeddedPool()
            let integrity: [String]
            (integrity, versions, counter) = try await pool.read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                 try Int64.fetchAll(db, sql: versionsQuery),
                 try Int64.fetchOne(db, sql: "SELECT value FROM changeCounter") ?? 0)
            }
            if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
            try pool.close()
        case .postgres:
            try await Self.withClient(try postgresURL()) { client in
                for try await version in try await client.query(PostgresQuery(unsafeSQL: versionsQuery)).decode(Int64.self) {
                    versions.append(version)
                }
                for try await value in try await client.query("SELECT value FROM change_counter").decode(Int64.self) {
                    counter = value
                }
            }
        }
        if Set(versions).count != versions.count { problems.append("a version is used twice") }
        if let highest = versions.max(), highest > counter { problems.append("version \(highest) is above the counter \(counter)") }
        return problems
    }
}
