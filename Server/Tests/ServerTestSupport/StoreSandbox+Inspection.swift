import CipherDB
import Foundation
import Players
import PlayersProtocol
import PlayersServerPostgres
import PlayersServerStore
import PlayersStorage
import PostgresClient

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
            for value in try rows.decode(Int.self) { count = value }
        }
        return count
    }

    /// Takes the sandbox's PostgreSQL schema back to version 2, before the
    /// digest (its triggers, functions and columns dropped), as a server
    /// of an older version left it: the next store migrates it again.
    public func rewindPostgresSchemaBeforeTheDigest() async throws {
        try await Self.withClient(try postgresURL()) { client in
            for trigger in ["player_digest_insert", "player_digest_delete", "player_digest_update", "player_digest_truncate"] {
                try await client.query("DROP TRIGGER \(unescaped: trigger) ON player")
            }
            for function in ["players_digest_inserted", "players_digest_deleted", "players_digest_updated", "players_digest_truncated",
                             "players_digest_hash"] {
                try await client.query("DROP FUNCTION \(unescaped: function)")
            }
            try await client.query("ALTER TABLE change_counter DROP COLUMN player_count, DROP COLUMN checksum")
            try await client.query("UPDATE schema_version SET version = 2")
        }
    }

    /// The digest that the store keeps with its counter, and the one this
    /// process computes from every live player with
    /// `PlayersDigest.hash` (on PostgreSQL, a check of its SQL hash too).
    public func digests() async throws -> (stored: PlayersDigest, recomputed: PlayersDigest) {
        var stored = PlayersDigest.empty
        var recomputed = PlayersDigest.empty
        switch kind {
        case .embedded:
            let pool = try embeddedPool()
            defer { try? pool.close() }
            (stored, recomputed) = try await pool.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT playerCount, checksum FROM changeCounter")
                return (PlayersDigest(players: row?[0] ?? -1, checksum: UInt64(bitPattern: row?[1] ?? 0)),
                        try PlayersDigest.recomputed(db, sql: "SELECT uuid, name, score, version FROM player"))
            }
        case .postgres:
            try await Self.withClient(try postgresURL()) { client in
                for (players, checksum) in try await client.query(
                    "SELECT player_count, checksum FROM change_counter").decode((Int, Int64).self) {
                    stored = PlayersDigest(players: players, checksum: UInt64(bitPattern: checksum))
                }
                for (uuid, name, score, version) in try await client.query(
                    "SELECT uuid, name, score, version FROM player").decode((UUID, String, Int, Int64).self) {
                    recomputed.toggle(uuid: uuid, name: name, score: score, version: version)
                }
            }
        }
        return (stored, recomputed)
    }

    /// What is wrong with the stored players, as sentences; empty when
    /// nothing is: on both stores, every version is unique among players
    /// and tombstones and none is above the counter, and the digest kept
    /// with the counter is the players' (``digests()``); on the embedded
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
                for version in try await client.query(PostgresQuery(unsafeSQL: versionsQuery)).decode(Int64.self) {
                    versions.append(version)
                }
                for value in try await client.query("SELECT value FROM change_counter").decode(Int64.self) {
                    counter = value
                }
            }
        }
        let digests = try await digests()
        if digests.stored != digests.recomputed { problems.append("the digest kept is \(digests.stored), the players' \(digests.recomputed)") }
        if Set(versions).count != versions.count { problems.append("a version is used twice") }
        if let highest = versions.max(), highest > counter { problems.append("version \(highest) is above the counter \(counter)") }
        return problems
    }
}
