import CipherDB
import CipherSync
import Foundation
import Players
import PlayersOnServer
import PlayersShared
import PlayersSync
import ServerTestSupport
import SyncEngine
import SyncServerEmbedded
import SyncServerHTTP
import Synchronization
import TestSupport
import Testing

/// Runs `body` against a live `players-server` on loopback (the real
/// router, on an in-memory store seeded with `seed` players), with the
/// server's base URL.
func withLiveServer(
    seed: Int = 0,
    token: String? = nil,
    pageSize: Int = 500,
    tombstoneRetention: TimeInterval = 30 * 86_400,
    _ body: @Sendable (PlayersTestStore, URL) async throws -> Void) async throws
{
    let engine = EmbeddedSyncStore(try ServerSyncDatabase(DatabaseQueue(), schema: PlayersSchema.schema))
    let store = PlayersTestStore(engine)
    try await store.seed(seed)
    var configuration = ServerConfiguration()
    configuration.token = token
    configuration.defaultPageSize = pageSize
    configuration.tombstoneRetention = tombstoneRetention
    try await LiveServer.serve(SyncServerAPI(engine: engine, configuration: configuration).makeRouter()) { port in
        try await body(store, URL(string: "http://127.0.0.1:\(port)")!)
    }
}

/// An encrypted players database in its own folder, removed at the end.
final class ClientDatabase: Sendable {
    let folder: TemporaryFolder
    let appDatabase: AppDatabase
    let key: Data

    init() throws {
        folder = try TemporaryFolder()
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        self.key = key
        appDatabase = try AppDatabase.open(at: folder.url("players.db"), key: .rawKey { key })
    }

    /// Runs SQL on a connection of its own with the sync engine's
    /// triggers silent, as a bug (or a disk) would: nothing reaches the
    /// outbox. (Another program's plain SQL is recorded: the triggers are
    /// the database's own.)
    func writeBehindTheSyncsBack(_ sql: String, arguments: StatementArguments = []) throws {
        // The key first (its statements come before any other), then the
        // functions that the players' triggers call.
        var configuration = Configuration()
        DatabaseKeySource.rawKey { [key] in key }.configure(&configuration)
        configuration = AppDatabase.makeConfiguration(configuration)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in try db.mergingSyncChanges { try db.execute(sql: sql, arguments: arguments) } }
        try queue.close()
    }

    var path: String { folder.path("players.db") }

    /// Every row of the players and of the sync state: equal before and
    /// after means the content did not change.
    func contentChecksum() throws -> String {
        try PlayersSyncTests.contentChecksum(appDatabase)
    }

    /// The bytes of the database and its WAL.
    func fileBytes() -> [Data] {
        databaseFileBytes(path)
    }

    func players() throws -> [Player] {
        try appDatabase.reader.read { db in try Player.order(Player.Columns.uuid).fetchAll(db) }
    }

    /// Each player with its server version, in uuid order.
    func entries() throws -> [PlayersPayload.PlayerEntry] {
        try PlayersSyncTests.entries(appDatabase)
    }

    func client(_ baseURL: URL, transport: any HTTPTransport = fastTransport()) -> SyncClient<SyncEngineStore> {
        appDatabase.syncClient(baseURL: baseURL, transport: transport)
    }
}

/// Every row of the players and of the sync engine's state (the server
/// versions, the outbox, the conflicts, and where the last pull left off
/// with the server's digests there), not its staging: equal before and
/// after means the content did not change.
func contentChecksum(_ appDatabase: AppDatabase) throws -> String {
    try appDatabase.reader.read { db in
        try [
            "SELECT * FROM player ORDER BY id",
            "SELECT * FROM sync_row ORDER BY table_name, row_id",
            "SELECT * FROM sync_outbox ORDER BY id",
            "SELECT * FROM sync_conflict ORDER BY id",
            "SELECT endpoint, cursor, etag, digests FROM sync_state ORDER BY id",
        ].flatMap { sql in try Row.fetchAll(db, sql: sql).map(\.description) }.joined(separator: "\n")
    }
}

/// A sandbox's database, opened in this process with its key file.
func openDatabase(of sandbox: CLISandbox) throws -> AppDatabase {
    let key = try SecretFiles.readKey(sandbox.keyPath)
    return try AppDatabase.open(at: URL(fileURLWithPath: sandbox.databasePath), key: .rawKey { key })
}

/// The content of a sandbox's database (``contentChecksum(_:)``), read
/// with a connection closed before it returns. A pull stages its pages in
/// the database itself: a pull that fails or only counts writes the file,
/// but not its content.
func contentChecksum(_ sandbox: CLISandbox) throws -> String {
    let appDatabase = try openDatabase(of: sandbox)
    defer { try? appDatabase.close() }
    return try contentChecksum(appDatabase)
}

/// Each player of the database with its server version (NULL for one
/// the server never sent), in uuid order, as `serverPlayers(_:)` lists
/// the server's.
func entries(_ appDatabase: AppDatabase) throws -> [PlayersPayload.PlayerEntry] {
    try appDatabase.reader.read { db in
        try Row.fetchAll(db, Player
            .select(Player.Columns.uuid, Player.Columns.name, Player.Columns.score, Player.versionExpression)
            .order(Player.Columns.uuid))
            .map { row in PlayersPayload.PlayerEntry(uuid: row[0], name: row[1], score: row[2], version: row[3]) }
    }
}

/// The server's live players as the client stores them.
func serverPlayers(_ store: PlayersTestStore) async throws -> [PlayersPayload.PlayerEntry] {
    try await store.allPlayers().map(\.entry)
}

/// A transport that runs `hook` after each answer, with the number of the
/// request (from 0): the way to change the server between two pages.
struct HookedTransport: HTTPTransport {
    let base: any HTTPTransport
    let counter = RequestCounter()
    let hook: @Sendable (Int, CipherSync.HTTPRequest) async throws -> Void

    func send(_ request: CipherSync.HTTPRequest) async throws -> CipherSync.HTTPResponse {
        let response = try await base.send(request)
        try await hook(counter.next(), request)
        return response
    }
}

/// Counts requests. `Sendable` through its mutex.
final class RequestCounter: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}
