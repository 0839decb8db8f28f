import CipherDB
import CipherSync
import Foundation
import PlayersProtocol

/// One merge, inside a transaction: prepared statements reused for every
/// row (SQLite 3.15.2 has no UPSERT).
struct PlayersMerge {
    struct LocalPlayer {
        var id: Int64
        var name: String
        var score: Int
        var version: Int64?
    }

    let db: Database
    let isSnapshot: Bool
    let dryRun: Bool

    init(_ db: Database, isSnapshot: Bool, dryRun: Bool) {
        self.db = db
        self.isSnapshot = isSnapshot
        self.dryRun = dryRun
    }

    func apply(_ changes: [PlayerChange]) throws -> SyncCounts {
        // Keyed by UUID, not its text: 16 bytes a key, no string to hash.
        var local: [UUID: LocalPlayer] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, uuid, name, score, version FROM player")
        while let row = try rows.next() {
            local[row[1]] = LocalPlayer(id: row[0], name: row[2], score: row[3], version: row[4])
        }

        var counts = SyncCounts()
        // What a snapshot lists matters only for the local players it does
        // not list: none in a first sync.
        let tracksListed = isSnapshot && !local.isEmpty
        var listed = Set<UUID>()
        if tracksListed { listed.reserveCapacity(changes.count) }
        for change in changes {
            let existing = local[change.uuid]
            switch change {
            case .player(let player):
                if tracksListed { listed.insert(player.uuid) }
                guard let existing else {
                    try write("INSERT INTO player (uuid, name, score, version) VALUES (?, ?, ?, ?)",
                              [player.uuid.uuidString, player.name, player.score, player.version])
                    counts.inserted += 1
                    continue
                }
                let version = player.version ?? 0
                guard existing.version.map({ version > $0 }) ?? true else {
                    counts.unchanged += 1
                    continue
                }
                try update(existing, to: player)
                counts.updated += 1
            case .tombstone(let tombstone):
                guard let existing, existing.version.map({ tombstone.version > $0 }) ?? true else { continue }
                try write("DELETE FROM player WHERE id = ?", [existing.id])
                counts.deleted += 1
            }
        }
        if tracksListed {
            // Synced players the snapshot no longer lists were deleted on
            // the server; players never synced stay.
            for (uuid, player) in local where player.version != nil && !listed.contains(uuid) {
                try write("DELETE FROM player WHERE id = ?", [player.id])
                counts.deleted += 1
            }
        }
        return counts
    }

    /// Writes the columns that changed, and the version.
    private func update(_ existing: LocalPlayer, to player: PlayersPayload.PlayerEntry) throws {
        switch (existing.name != player.name, existing.score != player.score) {
        case (true, true):
            try write("UPDATE player SET name = ?, score = ?, version = ? WHERE id = ?", [player.name, player.score, player.version, existing.id])
        case (true, false):
            try write("UPDATE player SET name = ?, version = ? WHERE id = ?", [player.name, player.version, existing.id])
        case (false, true):
            try write("UPDATE player SET score = ?, version = ? WHERE id = ?", [player.score, player.version, existing.id])
        case (false, false):
            try write("UPDATE player SET version = ? WHERE id = ?", [player.version, existing.id])
        }
    }

    private func write(_ sql: String, _ arguments: StatementArguments) throws {
        guard !dryRun else { return }
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
