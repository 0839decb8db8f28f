import CSQLCipher
import CipherDB
import CipherSync
import Foundation
import Players
import PlayersShared
import PlayersSync
import SyncEngine
import SyncSchema

/// The sync merge, through the sync engine (the players' store): decoding
/// a snapshot page, merging it into an empty database, merging it again
/// (nothing changes, nothing may be written), merging a delta that touches
/// one player in ten. The merges are timed with their decoding, against
/// decoding plus the raw-C writes of the same rows as the merge writes
/// them (the outbox's triggers silenced, each version in `sync_row`, the
/// merge's page cache); the decoding alone has a row of its own.
struct SyncWorkloads {
    let folder: URL
    let playerCount: Int

    static let endpoint = AppDatabase.playersEndpoint(baseURL: URL(string: "http://127.0.0.1:8080")!)

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let names = ["sync: decode a \(playerCount)-player snapshot",
                     "sync: merge \(playerCount) new players",
                     "sync: merge the same snapshot again",
                     "sync: merge a delta changing \(playerCount / 10) players"]
        guard names.contains(where: harness.includes) else { return }
        let fixtures = try PlayersFixtures(folder: folder, mode: mode, name: "sync")
        let rows = try (0..<playerCount).map(GeneratedSyncSnapshot.player)
        let schema = PlayersSchema.schema
        // With the server's digest, as a server sends them: each merge
        // also compares the merged players with it.
        let snapshot = SyncPage(kind: .snapshot, isComplete: true, cursor: GeneratedSyncSnapshot.cursor(at: playerCount), rows: rows,
                                    tombstones: [], digests: GeneratedSyncSnapshot.digests(of: rows, schema: schema)).jsonData()
        var afterDelta = rows
        let changed = try stride(from: 0, to: rows.count, by: 10).map { index in
            var values = rows[index].row.values
            if case .integer(let score)? = values["score"] { values["score"] = .integer(score + 1) }
            let row = SyncServerRow(row: try PlayersSchema.player.row(id: rows[index].row.id, values: values),
                                    version: Int64(playerCount + index / 10 + 1))
            afterDelta[index] = row
            return row
        }
        let delta = SyncPage(kind: .delta, isComplete: true, cursor: GeneratedSyncSnapshot.cursor(at: playerCount + changed.count),
                                 rows: changed, tombstones: [], digests: GeneratedSyncSnapshot.digests(of: afterDelta, schema: schema)).jsonData()
        let path = fixtures.path("sync-run")
        let baselinePath = fixtures.path("sync-baseline")
        let merged = fixtures.path("sync-merged")
        try fixtures.copy(fixtures.empty, to: merged)
        try Self.check(try await merge(snapshot, into: merged, fixtures), SyncCounts(inserted: playerCount))

        try await harness.measure(names[0], mode: mode, subject: {
            _ = try SyncPage.decode(snapshot, schema: schema)
        }, baseline: {
            _ = try JSONDecoder().decode(WirePage.self, from: snapshot)
        })

        // Decoding plus the raw-C insert of the same rows into an empty
        // database: the baseline of both snapshot merges.
        let prepareInsertBaseline = { try fixtures.copy(fixtures.empty, to: baselinePath) }
        let insertBaseline = {
            let page = try SyncPage.decode(snapshot, schema: schema)
            try fixtures.rawInsert(page.rows.lazy.map(Self.columns), path: baselinePath, pageCacheKiB: SyncEngine.mergePageCacheKiB)
        }
        try await harness.measureAsync(names[1], mode: mode, prepare: { try fixtures.copy(fixtures.empty, to: path) },
                                  prepareBaseline: prepareInsertBaseline, subject: {
            try Self.check(try await merge(snapshot, into: path, fixtures), SyncCounts(inserted: playerCount))
        }, baseline: insertBaseline)

        if harness.includes(names[2]) {
            try await checkUnchangedMergeWritesNothing(snapshot, merged: merged, path: path, fixtures)
        }
        try await harness.measureAsync(names[2], mode: mode, prepare: { try fixtures.copy(merged, to: path) },
                                  prepareBaseline: prepareInsertBaseline, subject: {
            try Self.check(try await merge(snapshot, into: path, fixtures), SyncCounts(unchanged: playerCount))
        }, baseline: insertBaseline)

        try await harness.measureAsync(names[3], mode: mode, prepare: { try fixtures.copy(merged, to: path) }, subject: {
            try Self.check(try await merge(delta, into: path, fixtures), SyncCounts(updated: changed.count))
        }, baseline: {
            let page = try SyncPage.decode(delta, schema: schema)
            let raw = try fixtures.rawConnection(path: path)
            try raw.execute("PRAGMA cache_size = -\(SyncEngine.mergePageCacheKiB)")
            try raw.execute("BEGIN")
            try raw.execute("UPDATE sync_merge SET active = 1")
            let update = try raw.prepare("UPDATE player SET score = ? WHERE uuid = ?")
            defer { sqlite3_finalize(update) }
            let version = try raw.prepare("UPDATE sync_row SET version = ? WHERE table_name = 'player' AND row_id = ?")
            defer { sqlite3_finalize(version) }
            for row in page.rows {
                let player = Self.columns(row)
                sqlite3_bind_int64(update, 1, Int64(player.score))
                RawSQLite.bind(player.uuid.uuidString, to: update, at: 2)
                try raw.run(update)
                sqlite3_bind_int64(version, 1, row.version)
                RawSQLite.bind(player.uuid.uuidString, to: version, at: 2)
                try raw.run(version)
            }
            try raw.execute("UPDATE sync_merge SET active = 0")
            try raw.execute("COMMIT")
        })
    }

    /// Decodes a page as a sync does, stages it and merges it with the
    /// players' store, as the sync client does with its pages.
    func merge(_ data: Data, into path: String, _ fixtures: PlayersFixtures) async throws -> SyncCounts {
        let appDatabase = try AppDatabase(DatabaseQueue(path: path, configuration: fixtures.configuration))
        let store = appDatabase.syncStore()
        let page = try store.decodePage(data)
        let staging = try await store.beginStaging()
        try await staging.stage(page, number: 1, isCatchUp: false)
        let fetch = StagedFetch(kind: page.isSnapshot ? .snapshot : .delta, cursor: page.page.cursor, etag: nil, digests: page.serverDigests)
        let counts = try await staging.merge(fetch, from: Self.endpoint, dryRun: false)
        if let divergence = counts.divergence {
            throw BenchError("the merged players differ from the page's digest (\(divergence))")
        }
        return counts
    }

    /// The goal is not only speed: a merge that changes nothing must write
    /// nothing of the app's (the engine stages the page in the database
    /// itself, so the file's bytes change with the staging).
    private func checkUnchangedMergeWritesNothing(_ snapshot: Data, merged: String, path: String, _ fixtures: PlayersFixtures) async throws {
        try fixtures.copy(merged, to: path)
        let before = try Self.syncedState(path: path, fixtures)
        try Self.check(try await merge(snapshot, into: path, fixtures), SyncCounts(unchanged: playerCount))
        guard try Self.syncedState(path: path, fixtures) == before else {
            throw BenchError("merging the same snapshot again changed the players, their versions, the outbox or the conflicts")
        }
    }

    /// Every player, version, outbox entry and conflict of the database:
    /// what a merge that changes nothing leaves as it was.
    static func syncedState(path: String, _ fixtures: PlayersFixtures) throws -> [[DatabaseValue]] {
        try DatabaseQueue(path: path, configuration: fixtures.configuration).read { db in
            try ["SELECT * FROM player ORDER BY id", "SELECT * FROM sync_row ORDER BY row_id", "SELECT * FROM sync_outbox ORDER BY id",
                 "SELECT * FROM sync_conflict ORDER BY id"].flatMap { sql in
                try Row.fetchAll(db, sql: sql).map { Array($0.databaseValues) }
            }
        }
    }

    /// The columns of a player row of a page.
    static func columns(_ row: SyncServerRow) -> PlayersFixtures.PlayerColumns {
        guard case .text(let name)? = row.row.values["name"], case .integer(let score)? = row.row.values["score"] else {
            preconditionFailure("a player row of a decoded page has its name and score")
        }
        return (row.row.id, name, Int(score), row.version)
    }

    static func check(_ counts: SyncCounts, _ expected: SyncCounts) throws {
        guard counts == expected else { throw BenchError("the merge counted \(counts) instead of \(expected): the workload is wrong") }
    }
}

/// A page as JSON has it, decoded by `JSONDecoder` alone: the baseline of
/// the decoding.
private struct WirePage: Decodable {
    struct Row: Decodable {
        var table: String
        var id: String
        var version: Int64
        var values: [String: SyncJSONScalar]
    }

    var protocolVersion: Int
    var kind: String
    var complete: Bool
    var cursor: String
    var rows: [Row]
    var digests: [SyncTableDigest]?
}
