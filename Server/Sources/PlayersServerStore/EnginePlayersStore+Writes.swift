import Foundation
import PlayersProtocol
import PlayersStorage
import SyncSchema
import SyncServer

/// The server's own writes of players (the HTTP API's edits, the seed, the
/// demo's changes) as changes of the engine, which the same rules apply as
/// a device's: each is made on the version it read, and one that another
/// write overtook is a conflict, never a lost update. Their answers are
/// not kept: no device retries them.
extension EnginePlayersStore {
    /// Players written per transaction by a seed.
    static let seedBatchSize = 1_000

    public func update(_ uuid: UUID, name: String?, score: Int?, expectedVersion: Int64?) async throws -> PlayerUpdateOutcome {
        var values: [String: SyncValue] = [:]
        if let name { values["name"] = .text(name) }
        if let score { values["score"] = .integer(Int64(score)) }
        let row = try Self.table.row(id: uuid, values: values, carrying: .changed)
        switch try await SyncRowEdit.update(row, expectedVersion: expectedVersion, mutationID: nil).apply(to: engine) {
        case .saved(let saved): return .updated(try ServerPlayer(uuid: uuid, values: saved.row.values, version: saved.version))
        case .notFound, .deleted, .conflict(nil, _): return .notFound
        case .conflict(_, let version): return .conflict(currentVersion: version ?? 0)
        }
    }

    public func delete(_ uuid: UUID) async throws -> Bool {
        switch try await SyncRowEdit.delete(Self.key(uuid), in: Self.table, expectedVersion: nil, mutationID: nil).apply(to: engine) {
        case .deleted: return true
        case .notFound, .saved, .conflict: return false
        }
    }

    public func seed(_ count: Int, progress: @escaping @Sendable (Int) -> Void) async throws {
        var inserted = 0
        while inserted < count {
            let creations = try (0..<min(Self.seedBatchSize, count - inserted)).map { _ in
                let player = RandomPlayer.draw()
                return SyncChange(mutationID: UUID(), operation: .upsert,
                                  row: try Self.row(player.uuid, name: player.name, score: player.score), baseVersion: nil)
            }
            // The first batch only into no player: two instances may seed
            // at once, and one seeds.
            guard try await engine.apply(SyncWrite(creations, keepsAnswers: false, requiresNoRowsIn: inserted == 0 ? Self.table.name : nil),
                                         at: Date()) != nil else { return }
            inserted += creations.count
            progress(inserted)
        }
    }

    public func refresh() async throws -> Int64 {
        var players: [ServerPlayer] = []
        var after: SyncRowKey?
        while true {
            let page = try await engine.snapshot(after: after, limit: Self.seedBatchSize, tables: Self.players)
            players += try page.rows.map(ServerPlayer.init(row:))
            guard page.rows.count == Self.seedBatchSize, let last = page.rows.last else { break }
            after = last.key
        }
        let random = RandomPlayerChanges(existing: players)
        var changes = try random.insertions.map { player in
            SyncChange(mutationID: UUID(), operation: .upsert, row: try Self.row(player.uuid, name: player.name, score: player.score),
                       baseVersion: nil)
        }
        if let deleted = random.deletion {
            changes.append(try Self.deletion(deleted.uuid, baseVersion: deleted.version))
        }
        for (player, score) in random.scoreChanges {
            changes.append(SyncChange(mutationID: UUID(), operation: .upsert, row: try Self.row(player.uuid, name: player.name, score: score),
                                      baseVersion: player.version))
        }
        // A player that another write changed since it was read is a
        // conflict, left as that write made it: the demo's changes are
        // random anyway.
        _ = try await write(changes)
        return try await engine.currentVersion()
    }

    /// Applies the server's own changes, without keeping their answers.
    private func write(_ changes: [SyncChange]) async throws -> [SyncPushResult] {
        try await engine.apply(SyncWrite(changes, keepsAnswers: false), at: Date()) ?? []
    }
}
