import CipherDB
import Foundation

/// The one way every file of these operations is written: a private
/// temporary file next to the destination is filled and verified, synced,
/// then renamed over the destination, and the folder synced, so that the
/// destination is the old file or the complete new one, even after a
/// crash; the temporary file is removed if anything fails.
extension DatabaseFileOperations {
    /// Writes `destination` through a new private temporary file created
    /// with `contents`: `prepare` fills it (a database copy) and verifies
    /// it, then it is moved into place.
    package static func writeVerified(
        to destination: URL,
        contents: Data = Data(),
        _ prepare: (_ temporary: URL) throws -> Void) throws
    {
        let temporary = try createTemporary(for: destination, contents: contents)
        do {
            try prepare(temporary)
            try moveIntoPlace(temporary, destination: destination)
        } catch {
            removeFiles(at: temporary)
            throw error
        }
    }

    /// Fills `temporary`, an empty private file, with a database copy
    /// (`write` returns the row counts of the original), and verifies it.
    static func writeVerifiedCopy(
        at temporary: URL,
        key: DatabaseKeySource?,
        pageSize: Int? = nil,
        write: () throws -> [String: Int]) throws
    {
        let counts = try write()
        try verify(temporary, key: key, pageSize: pageSize, counts: counts)
    }

    /// Opens the copy with its key (and the size of its pages), and checks
    /// its integrity and counts.
    static func verify(_ url: URL, key: DatabaseKeySource?, pageSize: Int? = nil, counts: [String: Int]) throws {
        // Read-write, so that a WAL copy opens without its -shm file;
        // nothing is written.
        try withDatabase(at: url, key: key, pageSize: pageSize) { queue in
            try queue.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard integrity == ["ok"] else {
                    throw DatabaseFileError.copyFailedIntegrityCheck(integrity.first ?? "")
                }
                guard try tableCounts(db) == counts else {
                    throw DatabaseFileError.copyRowsDiffer
                }
                if key != nil, try !db.isEncrypted {
                    throw DatabaseFileError.copyNotEncrypted
                }
            }
        }
    }

    /// The number of rows of each table, without SQLite's own tables.
    package static func tableCounts(_ db: Database) throws -> [String: Int] {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)")
        }
        return counts
    }

    /// A new private temporary file next to `destination`, created with
    /// mode 0600 and `contents` (empty for a database copy):
    /// `.NAME.PID.RANDOM.tmp`. The process id tells the temporary files of
    /// a killed run, which this removes first (see
    /// ``removeAbandonedTemporaries(of:)``), from those of a run in progress.
    package static func createTemporary(for destination: URL, contents: Data = Data()) throws -> URL {
        removeAbandonedTemporaries(of: destination)
        let random = UUID().uuidString.prefix(8)
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(random).tmp")
        try PrivateFile.create(at: temporary, contents: contents)
        return temporary
    }

    /// Removes the temporary files that a killed run left next to
    /// `destination` (a copy, and its `-wal`, `-shm` or `-journal`): those
    /// whose process no longer runs. Returns their paths.
    @discardableResult
    public static func removeAbandonedTemporaries(of destination: URL) -> [String] {
        let folder = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            // PID, RANDOM, then "tmp" with an optional SQLite suffix.
            guard parts.count == 3, let pid = pid_t(parts[0]), pid > 0,
                  databaseFileSuffixes.contains(where: { parts[2] == "tmp" + $0 }) else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = folder.appendingPathComponent(name).path
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// Syncs the copy, renames it over the destination, and syncs the
    /// folder, so that the destination is the old file or the complete
    /// new one, even after a crash.
    static func moveIntoPlace(_ temporary: URL, destination: URL) throws {
        try sync(temporary.path)
        for suffix in databaseFileSuffixes.dropFirst() {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            throw DatabaseFileError.system(.moveCopy, path: destination.path)
        }
        try sync(destination.deletingLastPathComponent().path)
    }

    /// Syncs a file, or a folder's entries, to disk.
    package static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DatabaseFileError.system(.openToSync, path: path)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw DatabaseFileError.system(.sync, path: path)
        }
    }
}
