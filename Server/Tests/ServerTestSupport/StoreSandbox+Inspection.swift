import CipherDB
import Foundation
import Players
import PlayersOnServer
import PlayersShared
import PostgresClient
import SyncSchema
import SyncServer
import TestSupport

extension StoreSandbox {
    /// Moves every tombstone and kept answer `seconds` into the past, as
    /// if they had been written then: the retention then expires them
    /// without waiting.
    public func ageTombstones(by seconds: Int) async throws {
        switch kind {
        case .embedded:
            let pool = try embeddedPool()
            try await pool.write { db in
                try db.execute(sql: "UPDATE sync_server_row SET deleted_at = deleted_at - ? WHERE deleted_at IS NOT NULL", arguments: [seconds])
                try db.execute(sql: "UPDATE sync_server_answer SET answered_at = answered_at - ?", arguments: [seconds])
            }
            try pool.close()
        case .postgres:
            try await Self.withClient(try postgresURL()) { client in
                try await client.query("UPDATE sync_server_row SET deleted_at = deleted_at - make_interval(secs => \(seconds))")
                try await client.query("UPDATE sync_server_answer SET answered_at = answered_at - make_interval(secs => \(seconds))")
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

    /// The digest that the store keeps of its `player` table, and the one
    /// this process computes from every live player (``SyncRowHasher``),
    /// both read through a store of its own.
    public func digests() async throws -> (stored: SyncTableDigest?, recomputed: SyncTableDigest) {
        let store = try await makeSyncStore(schema: PlayersSchema.schema)
        let table = PlayersSchema.player
        let hasher = SyncRowHasher()
        var recomputed = SyncTableDigest(table: table)
        var stored: SyncTableDigest?
        do {
            var after: SyncRowKey?
            while true {
                let page = try await store.snapshot(after: after, limit: 1_000, tables: SyncTableFilter([table.name]))
                if after == nil { stored = page.digests.first { $0.table == table.name } }
                for row in page.rows { recomputed.add(row, in: table, hasher: hasher) }
                guard let last = page.rows.last else { break }
                after = last.key
            }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
        return (stored, recomputed)
    }

    /// What is wrong with the stored rows, as sentences; empty when nothing
    /// is: on both stores, no version is above the counter and the digest
    /// kept of the players is theirs (``digests()``); on the embedded store,
    /// SQLite's integrity check passes too.
    public func storeProblems() async throws -> [String] {
        var highest: Int64?
        var counter: Int64 = 0
        var problems: [String] = []
        switch kind {
        case .embedded:
            let pool = try embeddedPool()
            let integrity: [String]
            (integrity, highest, counter) = try await pool.read { db in
                (try String.fetchAll(db, sql: "PRAGMA integrity_check"),
                 try Int64.fetchOne(db, sql: "SELECT MAX(version) FROM sync_server_row"),
                 try Int64.fetchOne(db, sql: "SELECT value FROM sync_server_counter") ?? 0)
            }
            if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
            try pool.close()
        case .postgres:
            try await Self.withClient(try postgresURL()) { client in
                for version in try await client.query("SELECT MAX(version) FROM sync_server_row").decode(Int64?.self) {
                    highest = version
                }
                for value in try await client.query("SELECT value FROM sync_server_counter").decode(Int64.self) {
                    counter = value
                }
            }
        }
        let digests = try await digests()
        if digests.stored != digests.recomputed {
            problems.append("the digest kept is \(digests.stored.map { "\($0)" } ?? "none"), the players' \(digests.recomputed)")
        }
        if let highest, highest > counter { problems.append("version \(highest) is above the counter \(counter)") }
        return problems
    }
}
