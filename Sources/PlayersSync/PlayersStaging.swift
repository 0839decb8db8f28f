import CipherDB
import CipherSync
import Foundation
import Players
import PlayersProtocol

/// The pages of one sync, staged in an encrypted database of their own
/// until the merge: a new file in a private folder (0700, the file 0600),
/// encrypted with a random raw key that is never written anywhere. Pages
/// are staged through a connection of its own, so that the players
/// database is neither written nor locked while pages arrive; the merge
/// attaches the file to the writer connection as `syncStaging` for its one
/// transaction, and detaches it. The folder is deleted when the sync
/// ends, whatever happens; a sync killed before (kill -9, a crash, the
/// computer's power) leaves it, and the next sync in that directory
/// deletes it: the folder's lock (`owner.lock`, held with `flock` while
/// its sync runs) is free.
///
/// Staging consolidates the pages as they come
/// (``stage(_:number:isCatchUp:)``): one row per uuid, in order of first
/// appearance, holding the change of the highest version; a snapshot that
/// lists a uuid on two pages is refused.
public final class PlayersStaging: SyncStaging {
    /// The name the staging database is attached as, for the merge.
    static let schema = "syncStaging"

    let appDatabase: AppDatabase
    /// The private folder that holds the staging database.
    let folder: URL
    let path: String
    let key: DatabaseKeySource
    /// The staging connection.
    let queue: DatabaseQueue
    let beforeCommit: (@Sendable (Database) throws -> Void)?
    let mergeProgress: SyncMergeProgress?
    /// The open `owner.lock`, locked until the folder is deleted.
    let ownerLock: Int32

    private init(_ appDatabase: AppDatabase, folder: URL, ownerLock: Int32, path: String, key: DatabaseKeySource, queue: DatabaseQueue,
                 beforeCommit: (@Sendable (Database) throws -> Void)?, mergeProgress: SyncMergeProgress?) {
        self.appDatabase = appDatabase
        self.folder = folder
        self.ownerLock = ownerLock
        self.path = path
        self.key = key
        self.queue = queue
        self.beforeCommit = beforeCommit
        self.mergeProgress = mergeProgress
    }

    /// Creates the staging database in a new private folder inside
    /// `directory`.
    static func begin(_ appDatabase: AppDatabase, in directory: URL,
                      beforeCommit: (@Sendable (Database) throws -> Void)?,
                      mergeProgress: SyncMergeProgress?) async throws -> PlayersStaging {
        removeAbandonedFolders(in: directory)
        var template = Array(directory.appendingPathComponent(folderPrefix + "XXXXXX").path.utf8CString)
        guard let created = mkdtemp(&template) else {
            throw DatabaseFileError.system(.createSyncFolder, path: directory.path)
        }
        let folder = URL(fileURLWithPath: String(cString: created))
        // Locked under another name, then renamed: another sync's cleanup
        // never finds an `owner.lock` that is not locked yet.
        let newLock = folder.appendingPathComponent(ownerLockName + ".new").path
        let ownerLock = open(newLock, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard ownerLock >= 0, flock(ownerLock, LOCK_EX | LOCK_NB) == 0,
              rename(newLock, folder.appendingPathComponent(ownerLockName).path) == 0 else {
            let reason = String(cString: strerror(errno))
            if ownerLock >= 0 { close(ownerLock) }
            try? FileManager.default.removeItem(at: folder)
            throw DatabaseFileError.system(.lockSyncFolder, path: directory.path, reason: reason)
        }
        do {
            let url = folder.appendingPathComponent("staging.db")
            try PrivateFile.createDatabaseFileIfMissing(at: url)
            // Made here, held in memory for this sync only.
            let keyBytes = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) })
            let key = DatabaseKeySource.rawKey { keyBytes }
            var configuration = Configuration()
            key.configure(&configuration)
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try await queue.writeWithoutTransaction { db in
                // A sync that fails discards the whole file: no journal
                // and no flush are needed to undo a page.
                try db.execute(sql: """
                    PRAGMA journal_mode = OFF;
                    PRAGMA synchronous = OFF;
                    PRAGMA cache_size = -16384;
                    CREATE TABLE playerChange (
                        seq INTEGER PRIMARY KEY, -- order of first appearance
                        uuid TEXT NOT NULL UNIQUE,
                        name TEXT, -- NULL for a tombstone
                        score INTEGER,
                        version INTEGER NOT NULL);
                    """)
            }
            return PlayersStaging(appDatabase, folder: folder, ownerLock: ownerLock, path: url.path, key: key, queue: queue,
                                  beforeCommit: beforeCommit, mergeProgress: mergeProgress)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            close(ownerLock)
            throw error
        }
    }

    /// The staging folders are `players-sync-XXXXXX`.
    static let folderPrefix = "players-sync-"
    static let ownerLockName = "owner.lock"

    /// Deletes the staging folders in `directory` that no running sync
    /// holds: their `owner.lock` can be locked. Folders of another user,
    /// or that cannot be read, are left alone.
    static func removeAbandonedFolders(in directory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix(folderPrefix) {
            let folder = directory.appendingPathComponent(name)
            let lock = open(folder.appendingPathComponent(ownerLockName).path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard lock >= 0 else { continue }
            defer { close(lock) }
            if flock(lock, LOCK_EX | LOCK_NB) == 0 {
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }

    /// Stages the players and tombstones of one page, in one transaction
    /// of the staging database.
    public func stage(_ page: PlayersPayload, number: Int, isCatchUp: Bool) async throws {
        let refusesRepeats = page.isSnapshot && !isCatchUp
        try await queue.write { db in
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO playerChange (uuid, name, score, version) VALUES (?, ?, ?, ?)")
            let replace = try db.cachedStatement(sql: "UPDATE playerChange SET name = ?, score = ?, version = ? WHERE uuid = ? AND version < ?")
            for (index, player) in page.players.enumerated() {
                let uuid = player.uuid.uuidString
                // Validated: a server's player always has a version.
                let version = player.version ?? 0
                try insert.execute(arguments: [uuid, player.name, player.score, version])
                guard db.changesCount == 0 else { continue }
                if refusesRepeats {
                    throw SyncPayloadError(page: number, path: "$.players[\(index)].uuid",
                                           "\(uuid) appears on an earlier page of the snapshot")
                }
                try replace.execute(arguments: [player.name, player.score, version, uuid, version])
            }
            for tombstone in page.tombstones {
                let uuid = tombstone.uuid.uuidString
                try insert.execute(arguments: [uuid, nil, nil, tombstone.version])
                guard db.changesCount == 0 else { continue }
                try replace.execute(arguments: [nil, nil, tombstone.version, uuid, tombstone.version])
            }
        }
    }

    /// Merges the staged changes and stores the position, in one write
    /// transaction of the players database; a dry run counts in a read
    /// transaction and writes nothing.
    public func merge(_ fetch: StagedFetch, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts {
        let isSnapshot = fetch.kind == .snapshot
        let (path, key, beforeCommit, mergeProgress) = (path, key, beforeCommit, mergeProgress)
        return try await appDatabase.dbWriter.writeWithoutTransaction { db in
            try db.attachDatabase(atPath: path, as: Self.schema, key: key)
            // The merge's statements are finalized by now: nothing holds
            // the staging database.
            defer { try? db.detachDatabase(named: Self.schema) }
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA main.cache_size") ?? -2000
            try db.execute(sql: "PRAGMA main.cache_size = -16384")
            defer { try? db.execute(sql: "PRAGMA main.cache_size = \(cacheSize)") }
            var counts = SyncCounts()
            try db.inTransaction(dryRun ? .deferred : .immediate) {
                counts = try PlayersMerge(db, isSnapshot: isSnapshot, dryRun: dryRun, progress: mergeProgress,
                                          historyChange: fetch.historyChange, sharedCounter: fetch.sharedCounter).apply()
                guard !dryRun else { return .commit }
                let digest = fetch.digest.map(PlayersDigest.init)
                if digest != nil {
                    // A player that never reached the server and waits
                    // for nothing (its outbox entry lost) is queued.
                    counts.requeued += try PendingChange.requeueUnsyncedPlayers(db)
                }
                counts.divergence = try SyncedPlayersCheck.divergence(db, from: digest)
                try SyncState.update(db, name: SyncState.playersStream) { state in
                    state.cursorEndpoint = endpoint.absoluteString
                    state.cursor = fetch.cursor
                    state.etag = fetch.etag
                    state.digest = digest
                }
                try beforeCommit?(db)
                return .commit
            }
            return counts
        }
    }

    /// Closes the staging connection and deletes the folder, then lets
    /// its lock go.
    public func discard() async {
        try? queue.close()
        try? FileManager.default.removeItem(at: folder)
        close(ownerLock)
    }
}
