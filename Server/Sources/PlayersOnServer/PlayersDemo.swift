import Foundation
import PlayersShared
import SyncSchema
import SyncServer

/// The demo's writes of players on a server that serves Players' table
/// (`players-server --seed N`, and `--demo`'s `POST /demo/refresh`), as
/// changes of the engine, which the same rules apply as a device's: each
/// is made on the version it read, and one that another write overtook is
/// a conflict, never a lost update. Their answers are not kept: no device
/// retries them.
///
/// ```swift
/// guard let demo = PlayersDemo(store) else { throw … } // no player table
/// try await demo.seed(1_000) { inserted in print(inserted) }
/// ```
public struct PlayersDemo: Sendable {
    let engine: any SyncRowStore
    static let table = PlayersSchema.player
    /// Players written per transaction by a seed, and read per page by a
    /// refresh.
    static let batchSize = 1_000

    /// The demo of `engine`'s players; nil when its declaration has no
    /// `player` table as `PlayersSchema` declares it.
    public init?(_ engine: any SyncRowStore) {
        guard Self.serves(engine.schema) else { return nil }
        self.engine = engine
    }

    /// Whether `schema` declares Players' `player` table, which the demo
    /// writes.
    public static func serves(_ schema: SyncSchema) -> Bool {
        schema.table(table.name) == table
    }

    /// Inserts `count` random players if there is none, calling
    /// `progress` with the number inserted so far as they go. Two
    /// instances that seed at once seed once.
    public func seed(_ count: Int, progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        var inserted = 0
        while inserted < count {
            let creations = try (0..<min(Self.batchSize, count - inserted)).map { _ in
                try Self.creation(RandomPlayer.draw())
            }
            // The first batch only into no player: two instances may seed
            // at once, and one seeds.
            guard try await engine.apply(SyncWrite(creations, keepsAnswers: false, requiresNoRowsIn: inserted == 0 ? Self.table.name : nil),
                                         at: Date()) != nil else { return }
            inserted += creations.count
            progress(inserted)
        }
    }

    /// The demo's random changes (``RandomPlayerChanges``): players
    /// inserted, one deleted, scores changed; returns the counter after
    /// them.
    public func refresh() async throws -> Int64 {
        var players: [SyncStoredRow] = []
        var after: SyncRowKey?
        while true {
            let page = try await engine.snapshot(after: after, limit: Self.batchSize, tables: SyncTableFilter([Self.table.name]))
            players += page.rows
            guard page.rows.count == Self.batchSize, let last = page.rows.last else { break }
            after = last.key
        }
        let random = RandomPlayerChanges(existing: players)
        var changes = try random.insertions.map(Self.creation(_:))
        if let deleted = random.deletion {
            changes.append(SyncChange(mutationID: UUID(), operation: .delete,
                                      row: try Self.table.row(id: deleted.key.id, values: [:], carrying: .changed),
                                      baseVersion: deleted.version))
        }
        for (player, score) in random.scoreChanges {
            guard var values = player.values else { throw SyncChangeError.storedRowDamaged(player.key) }
            values["score"] = .integer(Int64(score))
            changes.append(SyncChange(mutationID: UUID(), operation: .upsert, row: try Self.table.row(id: player.key.id, values: values),
                                      baseVersion: player.version))
        }
        // A player that another write changed since it was read is a
        // conflict, left as that write made it: the demo's changes are
        // random anyway.
        _ = try await engine.apply(SyncWrite(changes, keepsAnswers: false), at: Date())
        return try await engine.currentVersion()
    }

    /// The creation of a random player.
    static func creation(_ player: RandomPlayer) throws -> SyncChange {
        SyncChange(mutationID: UUID(), operation: .upsert,
                   row: try table.row(id: player.uuid, values: ["name": .text(player.name), "score": .integer(Int64(player.score))]),
                   baseVersion: nil)
    }
}
