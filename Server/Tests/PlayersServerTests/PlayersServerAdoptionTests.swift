import CipherDB
import Foundation
import PlayersOnServer
import PlayersShared
import ServerTestSupport
import SyncSchema
import SyncServer
import TestSupport
import Testing

/// A server database of the release before the sync engine's store
/// (players in tables of their own, on both stores), made by that
/// release's code and kept in Server/Tests/Fixtures: the engine's store
/// takes it in when it opens, with every player, version, tombstone,
/// answer, the counter and floor, and the history that its clients'
/// cursors name.
@Suite struct PlayersServerAdoptionTests {
    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    /// The fixture's identity and epochs, per store.
    static let history: [StoreKind: (server: String, epochs: [SyncEpoch])] = [
        .embedded: ("04495B72-2CEA-458C-8FFE-CB7B4FBDA827",
                    [SyncEpoch(epoch: "a6fc5905f318f6c5", start: 0), SyncEpoch(epoch: "6f57e653711384fc", start: 8)]),
        .postgres: ("F476D041-EDD1-4A94-940B-EC7D57A5FE47",
                    [SyncEpoch(epoch: "45dcb4c580c744c6", start: 0), SyncEpoch(epoch: "cd62529e222f4986", start: 8)]),
    ]

    /// Writes the fixture of `sandbox`'s store into its database.
    static func loadFixture(_ sandbox: StoreSandbox) async throws {
        let fixtures = BuiltProducts.serverPackageRoot.appendingPathComponent("Tests/Fixtures")
        switch sandbox.kind {
        case .embedded:
            let dump = try String(contentsOf: fixtures.appendingPathComponent("players-server-before-engine.sqlite.sql"), encoding: .utf8)
            let pool = try sandbox.embeddedPool()
            try await pool.writeWithoutTransaction { db in try db.execute(sql: dump) }
            try pool.close()
        case .postgres:
            try await ServerHistoryTests.runPostgresTool("psql", [
                "--quiet", "--no-psqlrc", "--set=ON_ERROR_STOP=1", "--dbname=\(try sandbox.postgresURLString())",
                "--file=\(fixtures.appendingPathComponent("players-server-before-engine.postgres.sql").path)",
            ])
        }
    }

    func save(_ mutation: Int, _ player: Int, _ name: String, _ score: Int64, base: Int64?) throws -> SyncChange {
        try .playerSave(Self.id(player), name: name, score: score, base: base, mutationID: Self.id(100 + mutation))
    }

    @Test(arguments: StoreKind.allCases)
    func everyPlayerVersionTombstoneAnswerAndTheHistoryAreTakenIn(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            try await Self.loadFixture(sandbox)
            let store = try await sandbox.makeStore()
            do {
                let players = try await store.allPlayers()
                #expect(players == [
                    ServerPlayer(uuid: Self.id(1), name: "Arthur", score: 11, version: 9),
                    ServerPlayer(uuid: Self.id(2), name: "Barbara | Zoé", score: 21, version: 6),
                    ServerPlayer(uuid: Self.id(5), name: "Éric", score: 50, version: 8),
                ])
                // The floor: a delta from before the purged tombstone is
                // refused; from it, every change in version order.
                #expect(try await store.engine.changes(after: 4, limit: 10, tables: nil) == nil)
                let delta = try #require(try await store.engine.changes(after: 5, limit: 10, tables: nil))
                #expect(delta.counter == 9)
                #expect(delta.rows.map { row -> String in
                    switch row.state {
                    case .live(let values, _): "\(values["name"].map { "\($0)" } ?? "?") \(row.version)"
                    case .deleted: "\(row.key.id == Self.id(3) ? "Craig" : "?") deleted \(row.version)"
                    }
                } == ["\(SyncValue.text("Barbara | Zoé")) 6", "Craig deleted 7", "\(SyncValue.text("Éric")) 8", "\(SyncValue.text("Arthur")) 9"])
                // The digest of Players' table is the XOR of its players'
                // hashes, as the release before computed it.
                let hasher = SyncRowHasher()
                let checksum = players.reduce(UInt64(0)) { checksum, player in
                    checksum ^ hasher.hash(PlayersSchema.player, id: player.uuid, version: player.version,
                                           values: ["name": .text(player.name), "score": .integer(Int64(player.score))])
                }
                let tableDigest = try #require(delta.digests.first { $0.table == "player" })
                #expect(tableDigest.rows == players.count && tableDigest.checksum == checksum)

                // The history its clients' cursors name: the same server,
                // its epochs (PostgreSQL's fixture was restored by psql
                // into new tables, so a new epoch began at 9, as the
                // release before would have begun it).
                let (server, epochs) = try #require(Self.history[kind])
                #expect(store.history.server.uuidString == server)
                #expect(Array(store.history.epochs.prefix(2)) == epochs)
                #expect(store.history.epochs.count == (kind == .postgres ? 3 : 2))
                #expect(kind == .embedded || store.history.epochs.last?.start == 9)

                // The answers kept: a retry gets the same one and changes
                // nothing; a new change takes the next version.
                let retried = try await store.engine.applyChanges([
                    try .playerDelete(Self.id(3), base: 3, mutationID: Self.id(105)),
                    try save(6, 2, "Bob", 22, base: 2),
                    try save(8, 1, "Arthur", 11, base: 1),
                    try save(9, 6, "Fatima", 60, base: nil),
                ], at: Date())
                #expect(retried.map(\.status) == [.applied, .conflict, .applied, .applied])
                #expect(retried.map(\.version) == [7, 6, 9, 10])
                #expect(retried[1].serverRow?.values == ["name": .text("Barbara | Zoé"), "score": .integer(21)])
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
            #expect(try await Self.earlierTablesLeft(sandbox) == [])
        }
    }

    /// The tables of the release before that are still there.
    static func earlierTablesLeft(_ sandbox: StoreSandbox) async throws -> [String] {
        try await tables(["player", "tombstone", "changeCounter", "appliedMutation", "serverIdentity", "historyEpoch",
                          "change_counter", "applied_mutation", "server_identity", "history_epoch"], leftIn: sandbox)
    }

    /// Those of `names` that are tables of the sandbox's database.
    static func tables(_ names: [String], leftIn sandbox: StoreSandbox) async throws -> [String] {
        switch sandbox.kind {
        case .embedded:
            let pool = try sandbox.embeddedPool()
            defer { try? pool.close() }
            return try await pool.read { db in try names.filter { try db.tableExists($0) } }
        case .postgres:
            let found = try await ServerHistoryTests.postgresOutput(sandbox, """
                SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class
                WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND relname = ANY('{\(names.joined(separator: ","))}')
                """)
            return found.isEmpty ? [] : found.split(separator: ",").map(String.init)
        }
    }

    /// A server of other tables alone could not serve the players it
    /// would take in: it refuses the database at start, in one sentence
    /// that says how to declare Players' table, before changing anything;
    /// a server that declares it then takes them in.
    @Test(arguments: StoreKind.allCases)
    func aServerWithoutPlayersTableRefusesTheReleaseBeforesDatabaseAndChangesNothing(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            try await Self.loadFixture(sandbox)
            try SyncSchema.testNotes.json().write(to: sandbox.folder.url("notes.json"))
            let result = try await ServerProcess.run(sandbox.serverArguments + ["--schema", "notes.json", "--port", "0"],
                                                     environment: try sandbox.serverEnvironment, in: sandbox.folder)
            #expect(result.status == 1)
            #expect(result.error == "players-server: \(PlayersServerAdoption.Refusal.playersUndeclared)\n")
            #expect(try await Self.earlierTablesLeft(sandbox).count == 6, "every table of the release before")
            #expect(try await Self.tables(["sync_server_schema_version", "sync_server_row"], leftIn: sandbox) == [],
                    "the engine's tables were not made")
            let store = try await sandbox.makeStore()
            let players = try await store.allPlayers()
            try await store.close()
            #expect(players.map(\.name) == ["Arthur", "Barbara | Zoé", "Éric"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func playersServerServesThePlayersOfTheReleaseBefore(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            try await Self.loadFixture(sandbox)
            let server = try ServerProcess(sandbox.serverArguments, environment: try sandbox.serverEnvironment)
            defer { _ = try? server.stop() }
            let page = try SyncPage.players(try server.request("GET", "/v1/sync/rows").body)
            #expect(page.rows.map(\.row.values["name"]) == [.text("Arthur"), .text("Barbara | Zoé"), .text("Éric")])
            #expect(page.digests?.first?.rows == 3)
            _ = try server.stop()
            if kind == .postgres {
                // The release before refuses its players' schema as newer.
                #expect(try await ServerHistoryTests.postgresOutput(sandbox, "SELECT version FROM schema_version") == "4")
            } else {
                // The release before refuses a file of unknown migrations.
                let pool = try sandbox.embeddedPool()
                defer { try? pool.close() }
                let migrations = try await pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
                #expect(migrations.contains("server-v5-engine-store"))
            }
        }
    }

    /// A database whose engine's tables already had rows (a server run
    /// with `--schema` before the upgrade) keeps them, after the players'
    /// versions, in the players' history.
    @Test(arguments: StoreKind.allCases)
    func theEnginesOwnRowsMoveAfterThePlayersVersions(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let notebook = UUID()
            let engine = try await sandbox.makeSyncStore(schema: .playersAndTestNotes)
            let change = SyncChange(mutationID: UUID(), operation: .upsert,
                                    row: try SyncSchema.testNotes.table("notebook")!.row(id: notebook, values: ["name": .text("Work")]),
                                    baseVersion: nil)
            #expect(try await engine.applyChanges([change], at: Date()).map(\.version) == [1])
            try await engine.close()
            try await Self.loadFixture(sandbox)
            let adopted = try await sandbox.makeSyncStore(schema: .playersAndTestNotes)
            do {
                #expect(try await adopted.row(SyncRowKey(table: "notebook", id: notebook))?.version == 10)
                #expect(try await adopted.row(SyncRowKey(table: "player", id: Self.id(1)))?.version == 9)
                #expect(try await adopted.currentVersion() == 10)
                #expect(adopted.history.server.uuidString == Self.history[kind]?.server)
                let delta = try #require(try await adopted.changes(after: 9, limit: 10))
                #expect(delta.rows.map(\.key) == [SyncRowKey(table: "notebook", id: notebook)])
            } catch {
                try? await adopted.close()
                throw error
            }
            try await adopted.close()
        }
    }
}
