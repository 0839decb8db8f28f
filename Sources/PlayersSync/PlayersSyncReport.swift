import CipherSync
import Foundation
import PlayersShared
import SyncEngine
import SyncSchema

/// What one `players sync` did: the push of the local changes, then the
/// pull.
public struct PlayersSyncReport: Encodable, Equatable, Sendable, CustomStringConvertible {
    public var push: SyncPushReport
    public var pull: SyncReport

    public init(push: SyncPushReport, pull: SyncReport) {
        self.push = push
        self.pull = pull
    }

    /// The report of the engine's sync.
    public init(_ report: SyncPushPullReport) {
        self.init(push: report.push, pull: report.pull)
    }

    /// Whether nothing was pushed and the pull brought no player nor
    /// tombstone (up to date, or an empty delta), and nothing was repaired:
    /// `players sync --watch` prints nothing for it.
    public var isEmpty: Bool {
        push.counts.applied == 0 && push.counts.conflicts == 0 && pull.repaired == nil
            && (pull.upToDate || pull.inserted + pull.updated + pull.deleted + pull.unchanged == 0)
    }

    /// One line: `pushed 2, +12 ~3 -1, conflicts 1, cursor 4815`; in a
    /// dry run, `would push 2, …`; `conflicts 2 (1 refused)` when the
    /// server refused changes (kept with the conflicts).
    public var description: String {
        let pushed = pull.dryRun ? "would push \(push.pending)" : "pushed \(push.counts.applied)"
        let pulled = pull.upToDate ? "up to date" : "+\(pull.inserted) ~\(pull.updated) -\(pull.deleted)"
        let refused = push.counts.refused > 0 ? " (\(push.counts.refused) refused)" : ""
        return "\(pushed), \(pulled), conflicts \(push.counts.conflicts)\(refused), cursor \(SyncCursor.shown(pull.cursorAfter))"
            + (pull.dryRun ? " (dry run: nothing written)" : "")
    }


    /// The lines that say what the sync found besides its counts: that the
    /// server's history differed from the one this database synced with,
    /// and that the synced players differed from the server's digest.
    public var notes: [String] {
        [historyNote, repairNote].compactMap { $0 }
    }

    /// The line that says what the `player` table's digests found, when a
    /// snapshot repaired the synced players. (Players declares that table
    /// alone: a divergence holds its digests.)
    var repairNote: String? {
        let table = PlayersSchema.player.name
        guard let repaired = pull.repaired, let local = repaired.local.first(where: { $0.table == table }),
              let server = repaired.server.first(where: { $0.table == table }) else { return nil }
        func players(_ digest: SyncTableDigest) -> String {
            "\(digest.rows) player\(digest.rows == 1 ? "" : "s"), checksum \(digest.hexadecimalChecksum)"
        }
        return "This database's synced players differed from the server's (here \(players(local)); "
            + "on the server \(players(server))): a snapshot repaired them."
    }

    /// The line that says how the server's history differed from the one
    /// this database synced with, when the sync found it so.
    var historyNote: String? {
        switch pull.historyChange {
        case nil:
            return nil
        case .wentBack:
            let kept = pull.requeued == 1 ? "the 1 value" : "the \(pull.requeued) values"
            return "The server's database went back (it was restored from a backup): took a snapshot, and kept \(kept) "
                + "it had lost (\(pull.dryRun ? "would push" : "pushed") again, or in 'players conflicts')."
        case .otherServer:
            return "The server holds another database than the one this one synced with: its snapshot replaced the synced players."
        }
    }

    /// The pull's fields (``SyncReport``), then `pushed`, `conflicts`,
    /// `pending`, and `refused` when the server refused changes: one flat
    /// JSON object.
    public func encode(to encoder: any Encoder) throws {
        try pull.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(push.counts.applied, forKey: .pushed)
        try container.encode(push.counts.conflicts, forKey: .conflicts)
        try container.encode(push.pending, forKey: .pending)
        if push.counts.refused > 0 { try container.encode(push.counts.refused, forKey: .refused) }
    }

    private enum CodingKeys: String, CodingKey {
        case pushed, conflicts, pending, refused
    }
}
