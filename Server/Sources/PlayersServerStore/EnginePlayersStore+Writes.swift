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
        while true {
            guard let stored = try await engine.row(Self.key(uuid)), stored.isLive else { return .notFound }
            if let expectedVersion, expectedVersion != stored.version { return .conflict(currentVersion: stored.version) }
            let player = try ServerPlayer(row: stored)
            let change = SyncChange(mutationID: UUID(), operation: .upsert,
                                    row: try Self.row(uuid, name: name ?? player.name, score: score ?? player.score),
                                    baseVersion: stored.version)
            let result = try await write([change])[0]
            switch result.status {
            case .applied:
                // The whole row as the change wrote it, at its version (a
                // change of nothing keeps the row's).
                return .updated(try ServerPlayer(uuid: uuid, values: change.row.values, version: result.version ?? stored.version))
            case .conflict:
                // Another write came first: an update on a given version
                // is a conflict; any other is made again on the new one.
                if expectedVersion != nil {
                    guard let version = result.version, result.serverRow != nil else { return .notFound }
                    return .conflict(currentVersion: version)
                }
            }
        }
    }

    public func delete(_ uuid: UUID) async throws -> Bool {
        while true {
            guard let stored = try await engine.row(Self.key(uuid)), stored.isLive else { return false }
            if try await write([try Self.deletion(uuid, baseVersion: stored.version)])[0].status == .applied { return true }
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
