import CipherDB
import CipherSync
import Foundation
import Players
import PlayersOnServer
import PlayersShared
import PlayersSync
import ServerTestSupport
import SyncEngine
import SyncSchema
import SyncServerHTTP
import TestSupport
import Testing

/// A client database changed behind the sync's back (here with SQL that
/// records nothing in the outbox, as a bug or a disk would): the server's
/// digest finds it at the next sync, a snapshot repairs it in the same
/// sync, and the report says so; on both stores, through the real router.
@Suite struct DivergenceRepairTests {
    /// A store of `kind` with `count` players, served on loopback, and a
    /// client database that has synced from it once, with nothing to
    /// repair, while `body` runs.
    func withSyncedClient(
        _ kind: StoreKind, players count: Int,
        _ body: @Sendable (PlayersTestStore, ClientDatabase, SyncClient<SyncEngineStore>) async throws -> Void
    ) async throws {
        try await StoreSandbox.withStore(kind) { store in
            for index in 0..<count { _ = try await store.insert(name: "P\(index)", score: index) }
            try await LiveServer.serve(SyncServerAPI(engine: store.engine, configuration: ServerConfiguration()).makeRouter()) { port in
                let database = try ClientDatabase()
                let client = database.client(URL(string: "http://127.0.0.1:\(port)")!)
                #expect(try await client.syncPlayers().pull.repaired == nil)
                try await body(store, database, client)
            }
        }
    }

    /// The server's players as a client stores them, in uuid order.
    func serverPlayers(_ store: PlayersTestStore) async throws -> [String] {
        try await store.allPlayers().map { "\($0.uuid.uuidString) \($0.name) \($0.score) \($0.version)" }.sorted()
    }

    func clientPlayers(_ database: ClientDatabase) throws -> [String] {
        try database.entries().map { "\($0.uuid.uuidString) \($0.name) \($0.score) \($0.version.map(String.init) ?? "none")" }.sorted()
    }

    /// Changes the client's synced players without the outbox: a score, a
    /// deletion, and a player the server never had, with a version.
    func corrupt(_ database: ClientDatabase) throws {
        let players = try database.players()
        let phantom = UUID().uuidString
        try database.writeBehindTheSyncsBack("""
            UPDATE player SET score = 999 WHERE uuid = ?;
            DELETE FROM player WHERE uuid = ?;
            INSERT INTO player (uuid, name, score) VALUES (?, 'Phantom', 1);
            INSERT INTO sync_row (table_name, row_id, version) VALUES ('player', ?, 2);
            """, arguments: [players[0].uuid.uuidString, players[1].uuid.uuidString, phantom, phantom])
    }

    @Test(arguments: StoreKind.allCases)
    func aClientChangedBehindTheSyncsBackIsRepairedByTheNextSync(_ kind: StoreKind) async throws {
        try await withSyncedClient(kind, players: 5) { store, database, client in
            try corrupt(database)
            // A change on the server: the next sync is a delta.
            _ = try await store.insert(name: "Later", score: 6)
            let report = try await client.syncPlayers()
            // The delta brought the new player before the check: the
            // client then held 5 − 1 + 1 + 1 players.
            let repaired = try #require(report.pull.repaired)
            #expect(repaired.local.map(\.table) == ["player"])
            #expect(repaired.server.map(\.table) == ["player"])
            let (local, server) = (try #require(repaired.local.first), try #require(repaired.server.first))
            #expect(local.rows == 6)
            #expect(server.rows == 6)
            #expect(local.checksum != server.checksum)
            #expect(report.pull.kind == .snapshot)
            #expect(report.notes == [
                "This database's synced players differed from the server's (here 6 players, checksum \(local.hexadecimalChecksum); "
                    + "on the server 6 players, checksum \(server.hexadecimalChecksum)): a snapshot repaired them.",
            ])
            #expect(try clientPlayers(database) == (try await serverPlayers(store)))
            #expect(try await client.syncPlayers().pull.repaired == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSyncAnswered304ComparesTheStoredDigest(_ kind: StoreKind) async throws {
        try await withSyncedClient(kind, players: 3) { store, database, client in
            // The cursor did not move: the answer's tag is kept.
            #expect(try await client.syncPlayers().pull.upToDate == false)
            #expect(try await client.syncPlayers().pull.upToDate)
            try corrupt(database)
            let report = try await client.syncPlayers()
            #expect(report.pull.repaired?.server.map(\.rows) == [3])
            #expect(try clientPlayers(database) == (try await serverPlayers(store)))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPlayerWhoseOutboxEntryWasLostIsPushed(_ kind: StoreKind) async throws {
        try await withSyncedClient(kind, players: 1) { store, database, client in
            let uuid = UUID()
            try database.writeBehindTheSyncsBack("INSERT INTO player (uuid, name, score) VALUES (?, 'Unsent', 2)", arguments: [uuid.uuidString])
            _ = try await store.insert(name: "Later", score: 3)
            let report = try await client.syncPlayers()
            #expect(report.pull.requeued == 1)
            #expect(report.pull.repaired == nil)
            #expect(try await store.player(uuid)?.name == "Unsent")
            #expect(try clientPlayers(database) == (try await serverPlayers(store)))
        }
    }
}
