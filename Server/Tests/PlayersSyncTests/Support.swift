import CipherDB
import CipherSync
import Foundation
import Players
import PlayersProtocol
import PlayersServerStore
import PlayersServerHTTP
import SyncServerDatabase
import PlayersSync
import ServerTestSupport
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
    _ body: @Sendable (EnginePlayersStore, URL) async throws -> Void) async throws
{
    let engine = EmbeddedSyncStore(try ServerSyncDatabase(DatabaseQueue(), schema: PlayersSchema.schema))
    let store = EnginePlayersStore(engine)
    try await store.seed(seed)
    var configuration = ServerConfiguration()
    configuration.token = token
    configuration.defaultPageSize = pageSize
    configuration.tombstoneRetention = tombstoneRetention
    try await LiveServer.serve(PlayersAPI(engine: engine, configuration: configuration).makeRouter()) { port in
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

    /// Runs SQL on a connection of its own, as another program (or a bug,
    /// or a disk) would: nothing reaches the outbox.
    func writeBehindTheSyncsBack(_ sql: String, arguments: StatementArguments = []) throws {
        // The functions that the players' triggers call, and the key.
        var configuration = AppDatabase.makeConfiguration()
        DatabaseKeySource.rawKey { [key] in key }.configure(&configuration)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.write { db in try db.execute(sql: sql, arguments: arguments) }
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

    func client(_ baseURL: URL, transport: any HTTPTransport = fastTransport()) -> SyncClient<PlayersSyncStore> {
        appDatabase.syncClient(baseURL: baseURL, transport: transport)
    }
}

/// Every row of the players and of the sync state: equal before and after
/// means the content did not change.
func contentChecksum(_ appDatabase: AppDatabase) throws -> String {
    try appDatabase.reader.read { db in
        let players = try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map(\.description)
        let state = try Row.fetchAll(db, sql: "SELECT * FROM syncState ORDER BY name").map(\.description)
        return (players + state).joined(separator: "\n")
    }
}

/// libcurl with retries whose delays are short: the tests check what is
/// retried, not how long it waits. Its time limits are the hang guard's:
/// a server of the test process that a loaded machine makes slow (past
/// the default 15 s without a byte, seen once in a full run) is waited for,
/// and one that hangs still ends the test.
func fastTransport(_ configure: (inout TransportConfiguration) -> Void = { _ in }) -> any HTTPTransport {
    let guardSeconds = TimeInterval(hangGuard.components.seconds)
    var configuration = TransportConfiguration()
    configuration.connectTimeout = guardSeconds
    configuration.timeout = guardSeconds
    configuration.lowSpeedTime = guardSeconds
    configure(&configuration)
    var policy = RetryPolicy()
    policy.initialDelay = 0.05
    return RetryingTransport(CurlTransport(configuration: configuration), policy: policy)
}

/// The server's live players as the client stores them.
func serverPlayers(_ store: EnginePlayersStore) async throws -> [PlayersPayload.PlayerEntry] {
    try await store.allPlayers().map(\.entry)
}

func entries(_ players: [Player]) -> [PlayersPayload.PlayerEntry] {
    players.map { PlayersPayload.PlayerEntry(uuid: $0.uuid, name: $0.name, score: $0.score, version: $0.version) }
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
