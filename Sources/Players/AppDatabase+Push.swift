import CipherDB
import Foundation
import PlayersProtocol
import SyncSchema

// MARK: - Pushing local changes

/// What recording the server's answers to one batch did: the sync
/// protocol's counts (``SyncSchema/SyncPushCounts``).
public typealias PushCounts = SyncPushCounts

extension AppDatabase {
    /// The number of local changes waiting to be pushed.
    public func pendingChangeCount() throws -> Int {
        try reader.read(PendingChange.fetchCount(_:))
    }

    /// The next changes to push, in the order they were made, at most one
    /// per player (a later change of a player waits for the answer to the
    /// earlier one, whose version it is based on); nil when there is none.
    ///
    /// Unless `markingSent` is false (a dry run), the entries are marked
    /// sent in a transaction committed before this returns: from then on
    /// they are never rewritten, so that a retry carries the values that
    /// may have reached the server.
    public func nextPushBatch(maximumChanges: Int = PlayersChangeBatch.maximumChanges, markingSent: Bool = true) throws -> PlayersChangeBatch? {
        let read = { @Sendable (db: Database) throws -> [PendingChange] in
            var entries: [PendingChange] = []
            var players = Set<UUID>()
            let cursor = try PendingChange.inPushOrder().fetchCursor(db)
            while entries.count < maximumChanges, let entry = try cursor.next() {
                if players.insert(entry.playerUUID).inserted {
                    try Self.checkPushable(db, entry)
                    entries.append(entry)
                }
            }
            return entries
        }
        let entries: [PendingChange]
        if markingSent {
            entries = try dbWriter.write { db in
                let entries = try read(db)
                let now = Date()
                for var entry in entries where entry.sentAt == nil {
                    entry.sentAt = now
                    try entry.update(db, columns: [PendingChange.Columns.sentAt])
                }
                return entries
            }
        } else {
            entries = try reader.read(read)
        }
        guard !entries.isEmpty else { return nil }
        return PlayersChangeBatch(changes: entries.map { entry in
            PlayersChangeBatch.Change(
                mutationID: entry.mutationID, uuid: entry.playerUUID,
                kind: entry.kind == .save ? .save : .delete,
                name: entry.name, score: entry.score, baseVersion: entry.baseVersion)
        })
    }

    /// Throws for a save whose name or score the server would refuse (a
    /// player written by an older version or another program, queued when
    /// the outbox was created), saying how to fix it: the batch would be
    /// refused whole.
    private static func checkPushable(_ db: Database, _ entry: PendingChange) throws {
        guard entry.kind == .save else { return }
        do throws(PlayerValidationError) {
            _ = try PlayerValidator.validPlayer(name: entry.name ?? "", score: entry.score ?? -1)
        } catch {
            let id = try Player.filter(Player.Columns.uuid == entry.playerUUID.uuidString).fetchOne(db)?.id
            throw AppDatabaseError.notPushable(playerID: id, uuid: entry.playerUUID, error)
        }
    }

    /// Records the server's answers to a pushed batch, in one transaction
    /// (Docs/Sync.md):
    ///
    /// - an applied change leaves the outbox; the player takes the version
    ///   it got, and the player's later changes are rebased on it;
    /// - a change in conflict leaves the outbox with the player's later
    ///   changes, the player takes the server's state (the server wins, so
    ///   that every client converges), and the local value is logged as a
    ///   ``PlayerConflict`` unless it equals the server's.
    ///
    /// Answers to changes no longer in the outbox (recorded by another
    /// sync) are ignored.
    public func recordPushResults(_ results: PlayersChangeResults, for batch: PlayersChangeBatch, at date: Date = Date()) throws -> PushCounts {
        try dbWriter.write { db in
            var counts = PushCounts()
            for (change, result) in zip(batch.changes, results.results) {
                guard let entry = try PendingChange.filter(PendingChange.Columns.mutationID == change.mutationID.uuidString).fetchOne(db) else {
                    continue
                }
                let laterEntries = PendingChange.filter(PendingChange.Columns.playerUUID == entry.playerUUID.uuidString)
                switch result.status {
                case .applied:
                    try entry.delete(db)
                    try laterEntries.updateAll(db, PendingChange.Columns.baseVersion.set(to: result.version))
                    if entry.kind == .save, let version = result.version {
                        try Player.filter(Player.Columns.uuid == entry.playerUUID.uuidString)
                            .updateAll(db, Player.Columns.version.set(to: version))
                    }
                    counts.applied += 1
                case .conflict:
                    let local = try Player.filter(Player.Columns.uuid == entry.playerUUID.uuidString).fetchOne(db)
                    try laterEntries.deleteAll(db)
                    if local?.name == result.player?.name && local?.score == result.player?.score {
                        counts.converged += 1
                    } else {
                        var conflict = PlayerConflict(
                            playerUUID: entry.playerUUID, localName: local?.name, localScore: local?.score,
                            serverName: result.player?.name, serverScore: result.player?.score,
                            serverVersion: result.player?.version ?? result.version, changedAt: entry.createdAt, detectedAt: date)
                        try conflict.insert(db)
                        counts.conflicts += 1
                    }
                    try Self.takeServerState(db, uuid: entry.playerUUID, local: local, server: result.player)
                }
            }
            return counts
        }
    }

    /// Makes the local row of a player the server's state: its live player,
    /// or none.
    private static func takeServerState(_ db: Database, uuid: UUID, local: Player?, server: PlayersPayload.PlayerEntry?) throws {
        switch (local, server) {
        case (var local?, let server?):
            try local.updateChanges(db) {
                $0.name = server.name
                $0.score = server.score
                $0.version = server.version
            }
        case (nil, let server?):
            var player = Player(uuid: uuid, name: server.name, score: server.score, version: server.version)
            try player.insert(db)
        case (let local?, nil):
            try local.delete(db)
        case (nil, nil):
            break
        }
    }
}
