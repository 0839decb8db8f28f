import Foundation
import PlayersOnServer
import PlayersShared
import SyncSchema
import SyncServer
import TestSupport

/// A live player of the server, as the tests arrange and check them.
public struct ServerPlayer: Equatable, Sendable {
    public var uuid: UUID
    public var name: String
    public var score: Int
    public var version: Int64

    public init(uuid: UUID, name: String, score: Int, version: Int64) {
        self.uuid = uuid
        self.name = name
        self.score = score
        self.version = version
    }

    /// The player of a live row of Players' table.
    init(_ row: SyncStoredRow) throws {
        try self.init(uuid: row.key.id, values: row.values ?? [:], version: row.version)
    }

    /// The player of a row of Players' table as the server answers it.
    init(_ row: SyncServerRow) throws {
        try self.init(uuid: row.row.id, values: row.row.values, version: row.version)
    }

    private init(uuid: UUID, values: [String: SyncValue], version: Int64) throws {
        guard case .text(let name)? = values["name"], case .integer(let score)? = values["score"] else {
            throw TestFailure("the row \(uuid) is not a live player: \(values)")
        }
        self.init(uuid: uuid, name: name, score: Int(score), version: version)
    }

    /// The player as a JSON export lists it.
    public var entry: PlayersPayload.PlayerEntry {
        PlayersPayload.PlayerEntry(uuid: uuid, name: name, score: score, version: version)
    }
}

/// The players of an engine's store that serves Players' table, arranged
/// and checked by the tests through the store itself (the server's own
/// edits, ``SyncRowEdit``), never through the API under test.
public struct PlayersTestStore: Sendable {
    public let engine: any SyncRowStore
    static let table = PlayersSchema.player

    public init(_ engine: any SyncRowStore) {
        self.engine = engine
    }

    public var history: ServerHistory { engine.history }
    public var changes: StoreChangeNotifier { engine.changes }

    /// Creates a player, whose uuid must be new.
    @discardableResult
    public func insert(uuid: UUID = UUID(), name: String, score: Int) async throws -> ServerPlayer {
        let row = try Self.table.row(id: uuid, values: ["name": .text(name), "score": .integer(Int64(score))])
        guard case .saved(let saved) = try await SyncRowEdit.create(row, mutationID: nil).apply(to: engine) else {
            throw TestFailure("the player \(uuid) was not created")
        }
        return try ServerPlayer(saved)
    }

    /// Sets a player's name or score, whatever its version.
    @discardableResult
    public func update(_ uuid: UUID, name: String? = nil, score: Int? = nil) async throws -> ServerPlayer {
        var values: [String: SyncValue] = [:]
        if let name { values["name"] = .text(name) }
        if let score { values["score"] = .integer(Int64(score)) }
        let row = try Self.table.row(id: uuid, values: values, carrying: .changed)
        guard case .saved(let saved) = try await SyncRowEdit.update(row, expectedVersion: nil, mutationID: nil).apply(to: engine) else {
            throw TestFailure("no player has the uuid \(uuid).")
        }
        return try ServerPlayer(saved)
    }

    /// Deletes a player, whatever its version.
    public func delete(_ uuid: UUID) async throws {
        let edit = try SyncRowEdit.delete(SyncRowKey(table: Self.table.name, id: uuid), in: Self.table, expectedVersion: nil, mutationID: nil)
        guard case .deleted = try await edit.apply(to: engine) else {
            throw TestFailure("no player has the uuid \(uuid).")
        }
    }

    /// The live player with this uuid, if any.
    public func player(_ uuid: UUID) async throws -> ServerPlayer? {
        guard let row = try await engine.row(SyncRowKey(table: Self.table.name, id: uuid)), row.isLive else { return nil }
        return try ServerPlayer(row)
    }

    /// The change counter.
    public func currentVersion() async throws -> Int64 {
        try await engine.currentVersion()
    }

    /// Every live player, in uuid order.
    public func allPlayers() async throws -> [ServerPlayer] {
        var players: [ServerPlayer] = []
        var after: SyncRowKey?
        while true {
            let page = try await engine.snapshot(after: after, limit: 1000, tables: SyncTableFilter([Self.table.name]))
            players += try page.rows.map(ServerPlayer.init(_:))
            guard page.rows.count == 1000, let last = page.rows.last else { return players }
            after = last.key
        }
    }

    /// The counter and every change kept (rows and tombstones), to compare
    /// before and after a request that must change nothing.
    public func state() async throws -> String {
        guard let delta = try await engine.changes(after: 0, limit: 100_000, tables: nil) else {
            return "\(try await currentVersion()) (tombstones purged) \(try await allPlayers())"
        }
        // Values in column order: two equal dictionaries may list their
        // entries in another order.
        return "\(delta.counter) " + delta.rows.map { row in
            "\(row.key) \(row.version) " + (row.values.map { values in values.keys.sorted().map { "\($0)=\(values[$0]!)" }.joined(separator: ",") }
                ?? "deleted")
        }.joined(separator: "; ")
    }

    /// The cursor of the store's history at `counter`, as its server sends
    /// it.
    public func cursor(_ counter: Int64) -> String {
        history.cursor(at: counter).description
    }

    /// Inserts `count` random players if there is none (`--seed`).
    public func seed(_ count: Int) async throws {
        guard let demo = PlayersDemo(engine) else { throw TestFailure("the store serves no player table") }
        try await demo.seed(count)
    }

    public func close() async throws {
        try await engine.close()
    }
}
