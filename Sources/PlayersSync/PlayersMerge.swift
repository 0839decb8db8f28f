import CipherDB
import CipherSync
import Foundation
import Players

/// One merge of the changes staged by a sync (``PlayersStaging``) into the
/// players, inside a transaction. It walks the staged changes in order of
/// first appearance, each with the local player of its uuid, and runs
/// prepared statements reused for every row (SQLite 3.15.2 has no
/// UPSERT); then, after a snapshot, one `DELETE` of the synced players it
/// no longer lists. Nothing is held in memory but the row at hand, and
/// every query follows an index: no temporary table, which SQLCipher
/// keeps in memory.
struct PlayersMerge {
    let db: Database
    let isSnapshot: Bool
    let dryRun: Bool
    /// Gets the staged changes walked so far and their total: at the
    /// start, every thousand changes, and at the end.
    let progress: SyncMergeProgress?
    /// How the server's history differed from the stored cursor's: with
    /// ``SyncHistoryChange/wentBack``, what the server lost is kept.
    let historyChange: SyncHistoryChange?
    /// With ``SyncHistoryChange/wentBack``: the counter up to which both
    /// histories are the same, nil when unknown.
    let sharedCounter: Int64?

    init(_ db: Database, isSnapshot: Bool, dryRun: Bool, progress: SyncMergeProgress? = nil,
         historyChange: SyncHistoryChange? = nil, sharedCounter: Int64? = nil) {
        self.db = db
        self.isSnapshot = isSnapshot
        self.dryRun = dryRun
        self.progress = progress
        self.historyChange = historyChange
        self.sharedCounter = sharedCounter
    }

    /// The condition on a uuid (an SQL expression) that a local player
    /// must meet for the merge to touch it: insert, update or delete it.
    /// A player with local changes waiting in the outbox (made while the
    /// sync ran) is left alone: its next push settles it against the
    /// server, and a conflict is kept rather than overwritten. The one
    /// place that says so: both statements that choose players use it.
    static func mayTouch(uuid: String) -> String {
        "NOT EXISTS (SELECT 1 FROM main.pendingChange WHERE pendingChange.playerUUID = \(uuid))"
    }

    /// Each staged change, with the local player of its uuid if any.
    static let changesSQL = """
        SELECT change.uuid, change.name, change.score, change.version, player.id, player.name, player.score, player.version
        FROM \(PlayersStaging.schema).playerChange AS change
        LEFT JOIN player ON player.uuid = change.uuid
        WHERE \(mayTouch(uuid: "change.uuid"))
        ORDER BY change.seq
        """

    /// The synced players that a snapshot does not mention.
    static let unlistedCondition = """
        player.version IS NOT NULL AND \(mayTouch(uuid: "player.uuid"))
        AND NOT EXISTS (SELECT 1 FROM \(PlayersStaging.schema).playerChange AS change WHERE change.uuid = player.uuid)
        """

    func apply() throws -> SyncCounts {
        var counts = SyncCounts()
        if historyChange == .wentBack {
            counts.requeued = try keepWhatTheServerLost()
        }
        // Counted only for someone who follows the merge.
        let staged = progress == nil ? 0 : try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(PlayersStaging.schema).playerChange") ?? 0
        var walked = 0
        progress?(0, staged)
        // Not cached: the statement is finalized with its cursor, so that
        // the staging database can be detached after the merge.
        let rows = try Row.fetchCursor(db.makeStatement(sql: Self.changesSQL))
        while let row = try rows.next() {
            walked += 1
            if walked % 1000 == 0 { progress?(walked, staged) }
            let version: Int64 = row[3]
            let localID: Int64? = row[4]
            let localVersion: Int64? = row[7]
            let isNewer = localVersion.map { version > $0 } ?? true
            guard let name = row[1] as String? else {
                // A tombstone. After a snapshot, a synced player that it
                // does not list is deleted anyway (below).
                guard let localID, isNewer || isSnapshot else { continue }
                try write("DELETE FROM player WHERE id = ?", [localID])
                counts.deleted += 1
                continue
            }
            let score: Int = row[2]
            guard let localID else {
                try write("INSERT INTO player (uuid, name, score, version) VALUES (?, ?, ?, ?)", [row[0] as String, name, score, version])
                counts.inserted += 1
                continue
            }
            // A snapshot is the server's state: it replaces every synced
            // value whatever its version, so that no value, even one a
            // tampered page left with a forged version, outlives it.
            let newName = (row[5] as String) == name ? nil : name
            let newScore = (row[6] as Int) == score ? nil : score
            guard isNewer || (isSnapshot && (newName != nil || newScore != nil || localVersion != version)) else {
                counts.unchanged += 1
                continue
            }
            try update(localID, name: newName, score: newScore, version: version)
            counts.updated += 1
        }
        if isSnapshot {
            // Synced players the snapshot no longer lists were deleted on
            // the server; players never synced stay.
            counts.deleted += try deleteUnlisted()
        }
        progress?(staged, staged)
        return counts
    }

    /// After the server's history went back: keeps every synced value that
    /// the server lost (a player synced after `sharedCounter`, whose value
    /// differs from the server's), before the walk, which then leaves it
    /// alone or gives it the server's value:
    ///
    /// - a player that the server has as it was before the loss (a version
    ///   up to `sharedCounter`), or does not have, is queued to be pushed
    ///   again: a save on the server's version, or a creation;
    /// - a player that the server changed or deleted since, or any when
    ///   `sharedCounter` is unknown, is kept as a conflict
    ///   (``PlayerConflict``): the server's value wins, as after a push.
    ///
    /// Returns how many values were kept. Held in memory: those values.
    private func keepWhatTheServerLost() throws -> Int {
        let rows = try Row.fetchAll(db, sql: """
            SELECT player.uuid, player.name, player.score, change.uuid IS NOT NULL, change.name, change.score, change.version
            FROM player LEFT JOIN \(PlayersStaging.schema).playerChange AS change ON change.uuid = player.uuid
            WHERE player.version > ? AND \(Self.mayTouch(uuid: "player.uuid"))
            """, arguments: [sharedCounter ?? 0])
        var kept = 0
        for row in rows {
            let (uuid, name, score): (UUID, String, Int) = (row[0], row[1], row[2])
            let isStaged: Bool = row[3]
            let serverName: String? = row[4]
            let serverScore: Int? = row[5]
            let serverVersion: Int64? = row[6]
            if serverName == name && serverScore == score { continue }
            kept += 1
            guard !dryRun else { continue }
            if let sharedCounter, !isStaged || (serverName != nil && (serverVersion ?? .max) <= sharedCounter) {
                var change = PendingChange(playerUUID: uuid, kind: .save, name: name, score: score, baseVersion: isStaged ? serverVersion : nil)
                try change.insert(db)
            } else {
                var conflict = PlayerConflict(playerUUID: uuid, localName: name, localScore: score, serverName: serverName,
                                              serverScore: serverScore, serverVersion: serverVersion, changedAt: Date())
                try conflict.insert(db)
            }
        }
        return kept
    }

    /// Deletes the synced players that the snapshot does not list, and
    /// returns how many: a thousand ids at a time, because one `DELETE …
    /// WHERE` would first gather every id in memory.
    private func deleteUnlisted() throws -> Int {
        let select = try db.cachedStatement(sql: "SELECT id FROM player WHERE id > ? AND \(Self.unlistedCondition) ORDER BY id LIMIT 1000")
        var deleted = 0
        var lastID: Int64 = 0
        while true {
            let ids = try Int64.fetchAll(select, arguments: [lastID])
            guard let last = ids.last else { return deleted }
            for id in ids { try write("DELETE FROM player WHERE id = ?", [id]) }
            deleted += ids.count
            lastID = last
        }
    }

    /// Writes the columns that changed (nil: unchanged), and the version.
    private func update(_ id: Int64, name: String?, score: Int?, version: Int64) throws {
        switch (name, score) {
        case let (name?, score?):
            try write("UPDATE player SET name = ?, score = ?, version = ? WHERE id = ?", [name, score, version, id])
        case let (name?, nil):
            try write("UPDATE player SET name = ?, version = ? WHERE id = ?", [name, version, id])
        case let (nil, score?):
            try write("UPDATE player SET score = ?, version = ? WHERE id = ?", [score, version, id])
        case (nil, nil):
            try write("UPDATE player SET version = ? WHERE id = ?", [version, id])
        }
    }

    private func write(_ sql: String, _ arguments: StatementArguments) throws {
        guard !dryRun else { return }
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
