import CSQLCipher
import CipherDB
import Foundation
import Players
import PlayersShared

/// The demo application's database work: inserting players one record at
/// a time (`savePlayer`), fetching them by score, updating some with
/// `updateChanges`.
struct PlayersWorkloads {
    let folder: URL
    let playerCount: Int
    let updateCount: Int

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let names = ["Players: insert \(playerCount) players with save",
                     "Players: fetch \(playerCount) players ordered by score",
                     "Players: updateChanges on \(updateCount) players"]
        guard names.contains(where: harness.includes) else { return }
        let fixtures = try PlayersFixtures(folder: folder, mode: mode, name: "players")
        let players = PlayersFixtures.makePlayers(count: playerCount)
        let full = try fixtures.makeFilled(with: players, name: "players-full")
        let path = fixtures.path("players-run")
        let configuration = fixtures.configuration

        try await harness.measure(names[0], mode: mode, prepare: { try fixtures.copy(fixtures.empty, to: path) }, subject: {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            try dbQueue.write { db in
                for var player in players { try player.save(db) }
            }
        }, baseline: {
            try fixtures.rawInsert(players, path: path)
        })

        let fetchQueue = try DatabaseQueue(path: full, configuration: configuration)
        let request = Player.all().orderedByScore()
        let sql = try await fetchQueue.read { db in try request.makePreparedRequest(db).statement.sql }
        let raw = try fixtures.rawConnection(path: full)
        try await harness.measure(names[1], mode: mode, subject: {
            let fetched = try fetchQueue.read { db in try request.fetchAll(db) }
            try PlayersFixtures.check(fetched.count, playerCount)
        }, baseline: {
            let statement = try raw.prepare(sql)
            defer { sqlite3_finalize(statement) }
            var fetched: [Player] = []
            while sqlite3_step(statement) == SQLITE_ROW {
                fetched.append(PlayersFixtures.rawPlayer(statement))
            }
            try PlayersFixtures.check(fetched.count, playerCount)
        })

        // The players as fetched before the update: ids 1…updateCount.
        let toUpdate = players.prefix(updateCount).enumerated().map { offset, player in
            var player = player
            player.id = Int64(offset + 1)
            return player
        }
        try await harness.measure(names[2], mode: mode, prepare: { try fixtures.copy(full, to: path) }, subject: {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            try dbQueue.write { db in
                for var player in toUpdate {
                    guard try player.updateChanges(db, modify: { $0.score += 1 }) else {
                        throw BenchError("updateChanges wrote nothing: the workload is wrong")
                    }
                }
            }
        }, baseline: {
            let raw = try fixtures.rawConnection(path: path)
            try raw.execute("BEGIN")
            let statement = try raw.prepare("UPDATE player SET score = ? WHERE id = ?")
            defer { sqlite3_finalize(statement) }
            for player in toUpdate {
                sqlite3_bind_int64(statement, 1, Int64(player.score + 1))
                sqlite3_bind_int64(statement, 2, player.id!)
                try raw.run(statement)
            }
            try raw.execute("COMMIT")
        })
    }
}

/// Players databases for the benchmarks: an empty one with the
/// application's schema (made by its migrations), filled copies, and the
/// raw-C equivalents of what CipherDB does with them.
struct PlayersFixtures {
    let folder: URL
    let mode: EncryptionMode
    let configuration: Configuration
    /// A migrated database without players.
    let empty: String

    init(folder: URL, mode: EncryptionMode, name: String, journalMode: Configuration.JournalModeConfiguration = .default) throws {
        self.folder = folder
        self.mode = mode
        var configuration = AppDatabase.makeConfiguration(ItemWorkloads.configuration(mode))
        configuration.journalMode = journalMode
        self.configuration = configuration
        empty = folder.appendingPathComponent("\(name)-empty-\(mode.rawValue).db").path
        try removeDatabaseFiles(empty)
        _ = try AppDatabase(DatabaseQueue(path: empty, configuration: configuration))
    }

    func path(_ name: String) -> String {
        folder.appendingPathComponent("\(name)-\(mode.rawValue).db").path
    }

    /// A copy of the empty database with these players, inserted by raw C.
    func makeFilled(with players: [Player], name: String) throws -> String {
        let path = path(name)
        try copy(empty, to: path)
        try rawInsert(players, path: path)
        return path
    }

    /// Replaces the database at `destination` (and its WAL, if any) by a
    /// copy of `source`.
    func copy(_ source: String, to destination: String) throws {
        try removeDatabaseFiles(destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        if FileManager.default.fileExists(atPath: source + "-wal") {
            try FileManager.default.copyItem(atPath: source + "-wal", toPath: destination + "-wal")
        }
    }

    // MARK: - Raw C

    /// A raw connection set up as CipherDB sets up the players'
    /// connections: the SQL functions of the triggers that store each
    /// name's order key, and foreign keys.
    func rawConnection(path: String) throws -> RawSQLite {
        let raw = try RawSQLite(path: path, mode: mode)
        try raw.execute("PRAGMA foreign_keys = ON")
        let code = sqlite3_create_function_v2(
            raw.handle, "players_name_order_key", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let text = sqlite3_value_text(arguments![0]) else {
                    sqlite3_result_null(context)
                    return
                }
                let key = Player.nameOrderKey(String(cString: text))
                sqlite3_result_text(context, key, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }, nil, nil, nil)
        try raw.check(code)
        return raw
    }

    /// The columns a raw insert writes: a player, and its server version
    /// when it is the server's.
    typealias PlayerColumns = (uuid: UUID, name: String, score: Int, version: Int64?)

    /// Inserts the players in one transaction, as hand-written C would.
    func rawInsert(_ players: [Player], path: String) throws {
        try rawInsert(players.lazy.map { ($0.uuid, $0.name, $0.score, nil) }, path: path)
    }

    /// Inserts the rows in one transaction, as hand-written C would; the
    /// server's rows (with a version) as the sync engine's merge writes
    /// them: the outbox's triggers silenced, the version in `sync_row`.
    /// `pageCacheKiB`: the connection's page cache, if not SQLite's.
    func rawInsert(_ players: some Sequence<PlayerColumns>, path: String, pageCacheKiB: Int? = nil) throws {
        let raw = try rawConnection(path: path)
        if let pageCacheKiB { try raw.execute("PRAGMA cache_size = -\(pageCacheKiB)") }
        try raw.execute("BEGIN")
        let statement = try raw.prepare("INSERT INTO player (uuid, name, score) VALUES (?, ?, ?)")
        defer { sqlite3_finalize(statement) }
        let version = try raw.prepare("INSERT INTO sync_row (table_name, row_id, version) VALUES ('player', ?, ?)")
        defer { sqlite3_finalize(version) }
        var isMerging = false
        for player in players {
            if let serverVersion = player.version {
                if !isMerging {
                    try raw.execute("UPDATE sync_merge SET active = 1")
                    isMerging = true
                }
                RawSQLite.bind(player.uuid.uuidString, to: version, at: 1)
                sqlite3_bind_int64(version, 2, serverVersion)
                try raw.run(version)
            }
            RawSQLite.bind(player.uuid.uuidString, to: statement, at: 1)
            RawSQLite.bind(player.name, to: statement, at: 2)
            sqlite3_bind_int64(statement, 3, Int64(player.score))
            try raw.run(statement)
        }
        if isMerging { try raw.execute("UPDATE sync_merge SET active = 0") }
        try raw.execute("COMMIT")
    }

    /// The player of the current row of `SELECT * FROM player`.
    static func rawPlayer(_ statement: OpaquePointer) -> Player {
        let uuid = UUID(uuidString: String(cString: sqlite3_column_text(statement, 1))) ?? UUID()
        return Player(
            id: sqlite3_column_int64(statement, 0), uuid: uuid,
            name: String(cString: sqlite3_column_text(statement, 2)),
            score: Int(sqlite3_column_int64(statement, 3)))
    }

    /// `count` players with distinct scores (so that ordering by score
    /// never compares names), never synced.
    static func makePlayers(count: Int) -> [Player] {
        (0..<count).map { index in
            // 7919 is a prime that divides none of the counts used: index *
            // 7919 mod count is a permutation.
            Player(name: "Player \(index)", score: index * 7919 % max(count, 1))
        }
    }

    static func check(_ count: Int, _ expected: Int) throws {
        guard count == expected else { throw BenchError("found \(count) players instead of \(expected): the workload is wrong") }
    }
}
