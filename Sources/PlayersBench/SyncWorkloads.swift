import CipherDB
import CipherSync
import CSQLCipher
import Foundation
import Players
import PlayersProtocol
import PlayersSync

/// The sync merge: decoding a snapshot, merging it into an empty
/// database, merging it again (nothing changes, nothing may be written),
/// merging a delta that touches one player in ten. The merges are timed
/// with their decoding, against decoding plus the raw-C writes of the
/// same rows; the decoding alone has a row of its own.
struct SyncWorkloads {
    let folder: URL
    let playerCount: Int

    static let endpoint = URL(string: "http://127.0.0.1:8080/v1/players")!

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let names = ["sync: decode a \(playerCount)-player snapshot",
                     "sync: merge \(playerCount) new players",
                     "sync: merge the same snapshot again",
                     "sync: merge a delta changing \(playerCount / 10) players"]
        guard names.contains(where: harness.includes) else { return }
        let fixtures = try PlayersFixtures(folder: folder, mode: mode, name: "sync")
        let entries = Self.makeEntries(count: playerCount)
        // With the server's digest, as a server sends them: each merge
        // also compares the merged players with it.
        let snapshot = try PlayersPayload(kind: .snapshot, cursor: GeneratedSnapshotTransport.cursor(at: playerCount), players: entries,
                                          digest: Self.digest(of: entries)).jsonData()
        var afterDelta = entries
        let changed = stride(from: 0, to: entries.count, by: 10).map { index in
            var entry = entries[index]
            entry.score += 1
            entry.version = Int64(playerCount + index / 10 + 1)
            afterDelta[index] = entry
            return entry
        }
        let delta = try PlayersPayload(kind: .delta, cursor: GeneratedSnapshotTransport.cursor(at: playerCount + changed.count), players: changed,
                                       digest: Self.digest(of: afterDelta)).jsonData()
        let path = fixtures.path("sync-run")
        let baselinePath = fixtures.path("sync-baseline")
        let merged = fixtures.path("sync-merged")
        try fixtures.copy(fixtures.empty, to: merged)
        try Self.check(try await merge(snapshot, into: merged, fixtures), SyncCounts(inserted: playerCount))

        try await harness.measure(names[0], mode: mode, subject: {
            _ = try PlayersPayload.decodePage(snapshot)
        }, baseline: {
            _ = try JSONDecoder().decode(PlayersPayload.self, from: snapshot)
        })

        // Decoding plus the raw-C insert of the same rows into an empty
        // database: the baseline of both snapshot merges.
        let prepareInsertBaseline = { try fixtures.copy(fixtures.empty, to: baselinePath) }
        let insertBaseline = {
            let payload = try PlayersPayload.decodePage(snapshot)
            try fixtures.rawInsert(payload.players.lazy.map { ($0.uuid, $0.name, $0.score, $0.version) }, path: baselinePath)
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
            let payload = try PlayersPayload.decodePage(delta)
            let raw = try fixtures.rawConnection(path: path)
            try raw.execute("BEGIN")
            let statement = try raw.prepare("UPDATE player SET score = ?, version = ? WHERE uuid = ?")
            defer { sqlite3_finalize(statement) }
            for player in payload.players {
                sqlite3_bind_int64(statement, 1, Int64(player.score))
                sqlite3_bind_int64(statement, 2, player.version ?? 0)
                RawSQLite.bind(player.uuid.uuidString, to: statement, at: 3)
                try raw.run(statement)
            }
            try raw.execute("COMMIT")
        })
    }

    /// Decodes a page as a sync does, and merges it with the players'
    /// sync store.
    func merge(_ data: Data, into path: String, _ fixtures: PlayersFixtures) async throws -> SyncCounts {
        let payload = try PlayersPayload.decodePage(data)
        let appDatabase = try AppDatabase(DatabaseQueue(path: path, configuration: fixtures.configuration))
        let fetch = SyncFetch(kind: payload.kind == .snapshot ? .snapshot : .delta, pages: [payload],
                              cursor: payload.cursor ?? "", etag: nil, bytesReceived: data.count)
        return try await PlayersSyncStore(appDatabase).merge(fetch, from: Self.endpoint, dryRun: false)
    }

    /// The goal is not only speed: a merge that changes nothing must leave
    /// the file byte for byte as it was.
    private func checkUnchangedMergeWritesNothing(_ snapshot: Data, merged: String, path: String, _ fixtures: PlayersFixtures) async throws {
        try fixtures.copy(merged, to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try Self.check(try await merge(snapshot, into: path, fixtures), SyncCounts(unchanged: playerCount))
        guard try Data(contentsOf: URL(fileURLWithPath: path)) == before else {
            throw BenchError("merging the same snapshot again changed the database file: it must write no page")
        }
    }

    /// `count` players as a server lists them, with versions 1…count.
    static func makeEntries(count: Int) -> [PlayersPayload.PlayerEntry] {
        PlayersFixtures.makePlayers(count: count).enumerated().map { index, player in
            PlayersPayload.PlayerEntry(uuid: player.uuid, name: player.name, score: player.score, version: Int64(index + 1))
        }
    }

    /// The digest of players as a server computes it.
    static func digest(of entries: [PlayersPayload.PlayerEntry]) -> PlayersDigest {
        var digest = PlayersDigest.empty
        for entry in entries {
            digest.toggle(uuid: entry.uuid, name: entry.name, score: entry.score, version: entry.version ?? 0)
        }
        return digest
    }

    static func check(_ counts: SyncCounts, _ expected: SyncCounts) throws {
        guard counts == expected else { throw BenchError("the merge counted \(counts) instead of \(expected): the workload is wrong") }
    }
}
