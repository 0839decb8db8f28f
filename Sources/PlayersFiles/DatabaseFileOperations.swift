import CipherDB
import Foundation
import Players

/// Copies of the players database that are written to a temporary file
/// next to their destination, synced to disk, verified (opened with their
/// key, `integrity_check`, the same row counts), and only then renamed into
/// place: a destination is never left half-written.
public enum DatabaseFileOperations {
    /// What a copy is encrypted with.
    public enum DestinationKey: Sendable {
        case key(DatabaseKeySource)
        /// No encryption: only when asked for explicitly.
        case plaintext
    }

    /// Reports the progress of a copy, from 0 to 1.
    public typealias Progress = @Sendable (Double) -> Void

    // MARK: - Backup

    /// An online backup of `source` into `destination`: consistent even
    /// while other connections write, encrypted with `destinationKey`.
    public static func backup(
        _ source: AppDatabase,
        to destination: URL,
        destinationKey: DestinationKey,
        replacing: Bool = false,
        progress: Progress? = nil) throws
    {
        try checkDestination(destination, replacing: replacing)
        try writeVerifiedCopy(to: destination, key: destinationKey) { temporary in
            try withDatabase(at: temporary, key: destinationKey) { copy in
                try copy.writeWithoutTransaction { copyDB in
                    try source.reader.read { sourceDB in
                        // The counts and the pages come from one snapshot.
                        let counts = try tableCounts(sourceDB)
                        try sourceDB.backup(
                            to: copyDB,
                            pagesPerStep: 64,
                            allowsPlaintextDestination: destinationKey.isPlaintext) { step in
                                progress?(Double(step.completedPageCount) / Double(max(step.totalPageCount, 1)))
                            }
                        return counts
                    }
                }
            }
        }
    }

    /// Writes a copy to a temporary file next to `destination` with
    /// `write` (which returns the row counts of the original), verifies
    /// it, and renames it into place; removes it if anything fails.
    private static func writeVerifiedCopy(
        to destination: URL,
        key: DestinationKey,
        write: (_ temporary: URL) throws -> [String: Int]) throws
    {
        let temporary = temporaryURL(for: destination)
        do {
            let counts = try write(temporary)
            try verify(temporary, key: key, counts: counts)
            try moveIntoPlace(temporary, destination: destination)
        } catch {
            removeFiles(at: temporary)
            throw error
        }
    }

    // MARK: - Export

    /// A copy made with `sqlcipher_export`, which rewrites every page: the
    /// way to change the key, or to turn a plaintext database into an
    /// encrypted one. `user_version` and the migrations come along.
    ///
    /// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#sqlcipher_export>.
    public static func export(
        from source: URL,
        sourceKey: DestinationKey,
        to destination: URL,
        destinationKey: DestinationKey,
        replacing: Bool = false) throws
    {
        try checkDestination(destination, replacing: replacing)
        try writeVerifiedCopy(to: destination, key: destinationKey) { temporary in
            // Create the destination with its key (an empty file).
            try withDatabase(at: temporary, key: destinationKey) { _ in }
            // Read-write, because a read-only connection cannot open a WAL
            // database whose -shm file is missing; nothing is written.
            return try withDatabase(at: source, key: sourceKey) { sourceQueue in
                try sourceQueue.inDatabase { db in
                    let counts = try tableCounts(db)
                    let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    try db.execute(sql: "ATTACH DATABASE ? AS export KEY ?",
                                   arguments: [temporary.path, try destinationKey.attachKey()])
                    defer { try? db.execute(sql: "DETACH DATABASE export") }
                    _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('export')")
                    try db.execute(sql: "PRAGMA export.user_version = \(userVersion)")
                    return counts
                }
            }
        }
    }

    // MARK: - JSON export

    /// A snapshot of all players as JSON, encrypted with `destinationKey`
    /// (see ``EncryptedFile``) unless it is `.plaintext`. Written to a
    /// temporary file, synced, verified (decrypted and decoded, the same
    /// players), then renamed into place.
    public static func exportJSON(
        _ source: AppDatabase,
        to destination: URL,
        destinationKey: DestinationKey,
        replacing: Bool = false) throws
    {
        try checkDestination(destination, replacing: replacing)
        let payload = try source.snapshotPayload()
        let json = try payload.jsonData(prettyPrinted: true)
        let content: Data
        switch destinationKey {
        case .plaintext: content = json
        case .key(let key): content = try EncryptedFile.seal(json, key: key)
        }
        let temporary = temporaryURL(for: destination)
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: content,
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw DatabaseFileError("cannot write \(temporary.path): check the permissions of the folder")
            }
            let written = try Data(contentsOf: temporary)
            let readBack: Data
            switch destinationKey {
            case .plaintext: readBack = written
            case .key(let key): readBack = try EncryptedFile.open(written, key: key)
            }
            guard try PlayersPayload.decode(readBack) == payload else {
                throw DatabaseFileError("the export does not read back as written: it was deleted")
            }
            try moveIntoPlace(temporary, destination: destination)
        } catch {
            removeFiles(at: temporary)
            throw error
        }
    }

    // MARK: - Rekey and restore

    /// Re-encrypts the database with a new key: an export to a temporary
    /// file, verified, then renamed over the database. An interruption
    /// leaves the database with the old key or with the new one, never
    /// neither. No other process may use the database meanwhile.
    public static func rekey(_ database: URL, from oldKey: DatabaseKeySource, to newKey: DatabaseKeySource) throws {
        try checkpointAndCheckUnused(database, key: .key(oldKey))
        let temporary = temporaryURL(for: database)
        do {
            try export(from: database, sourceKey: .key(oldKey), to: temporary, destinationKey: .key(newKey))
            try checkUnused(database)
            try moveIntoPlace(temporary, destination: database)
        } catch {
            removeFiles(at: temporary)
            throw error
        }
    }

    /// Replaces the database with a verified copy of a backup, re-encrypted
    /// with the database's key. The current database is kept as
    /// `*.before-restore` until the restored one is verified in place, and
    /// put back if anything fails.
    public static func restore(_ backup: URL, backupKey: DestinationKey, into database: URL, key: DatabaseKeySource) throws {
        guard FileManager.default.fileExists(atPath: backup.path) else {
            throw DatabaseFileError("there is no backup at \(backup.path)")
        }
        let temporary = temporaryURL(for: database)
        let previous = URL(fileURLWithPath: database.path + ".before-restore")
        do {
            try export(from: backup, sourceKey: backupKey, to: temporary, destinationKey: .key(key))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw DatabaseFileError("\(backup.path) does not open with the given key, or is not a players database: nothing was restored")
        }
        do {
            try checkpointAndCheckUnused(database, key: .key(key))
            removeFiles(at: previous)
            guard rename(database.path, previous.path) == 0 else {
                throw DatabaseFileError("cannot set the current database aside: \(String(cString: strerror(errno)))")
            }
        } catch {
            removeFiles(at: temporary)
            throw error
        }
        do {
            try moveIntoPlace(temporary, destination: database)
            let restored = try withDatabase(at: database, key: .key(key)) { try $0.read(tableCounts) }
            guard restored["player"] != nil else {
                throw DatabaseFileError("the backup holds no players table")
            }
            removeFiles(at: previous)
        } catch {
            // Put the previous database back.
            removeFiles(at: database)
            _ = rename(previous.path, database.path)
            removeFiles(at: temporary)
            throw DatabaseFileError("the restore failed and the previous database was put back: \(error)")
        }
    }

    /// Moves the WAL content into the database file, then checks that no
    /// other process has the database open (its -wal file would remain).
    static func checkpointAndCheckUnused(_ database: URL, key: DestinationKey) throws {
        try withDatabase(at: database, key: key) { queue in
            try queue.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        try checkUnused(database)
    }

    /// The last connection to close deletes the -wal file: if it is still
    /// there, another process is using the database.
    static func checkUnused(_ database: URL) throws {
        if FileManager.default.fileExists(atPath: database.path + "-wal") {
            throw DatabaseFileError("another process is using \(database.path): close it and try again (nothing was changed)")
        }
    }

    // MARK: - Verification

    /// The number of rows of each table, without SQLite's own tables.
    static func tableCounts(_ db: Database) throws -> [String: Int] {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier)")
        }
        return counts
    }

    /// Opens the copy with its key, and checks its integrity and counts.
    static func verify(_ url: URL, key: DestinationKey, counts: [String: Int]) throws {
        // Read-write, so that a WAL copy opens without its -shm file;
        // nothing is written.
        try withDatabase(at: url, key: key) { queue in
            try queue.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard integrity == ["ok"] else {
                    throw DatabaseFileError("the copy failed its integrity check (\(integrity.first ?? "")): it was deleted")
                }
                guard try tableCounts(db) == counts else {
                    throw DatabaseFileError("the copy does not hold the same rows as the original: it was deleted")
                }
                if !key.isPlaintext, try !db.isEncrypted {
                    throw DatabaseFileError("the copy is not encrypted: it was deleted")
                }
            }
        }
    }

    // MARK: - Files

    /// Refuses a destination that exists (unless replacing) or whose folder
    /// does not.
    static func checkDestination(_ destination: URL, replacing: Bool) throws {
        let folder = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DatabaseFileError("the folder \(folder.path) does not exist: create it first")
        }
        if !replacing && FileManager.default.fileExists(atPath: destination.path) {
            throw DatabaseFileError("\(destination.path) already exists: choose another name, or replace it explicitly")
        }
    }

    static func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).tmp")
    }

    /// Opens a queue on a file with a key, runs `body`, and closes it.
    /// The file is created if it does not exist.
    @discardableResult
    public static func withDatabase<T>(at url: URL, key: DestinationKey, _ body: (DatabaseQueue) throws -> T) throws -> T {
        var configuration = Configuration()
        if case .key(let source) = key {
            configuration.prepareDatabase { db in
                switch source {
                case .passphrase(let load): try db.usePassphrase(load())
                case .rawKey(let load): try db.useRawKey(load())
                }
            }
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try body(queue)
    }

    /// Syncs the copy, renames it over the destination, and syncs the
    /// folder, so that the destination is the old file or the complete
    /// new one, even after a crash.
    static func moveIntoPlace(_ temporary: URL, destination: URL) throws {
        // Copies may leave the database's private folder: only their owner
        // may read them.
        guard chmod(temporary.path, 0o600) == 0 else {
            throw DatabaseFileError("cannot restrict the permissions of \(temporary.path): \(String(cString: strerror(errno)))")
        }
        try sync(temporary.path)
        for suffix in ["-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            throw DatabaseFileError("cannot move the copy to \(destination.path): \(String(cString: strerror(errno)))")
        }
        try sync(destination.deletingLastPathComponent().path)
    }

    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DatabaseFileError("cannot open \(path) to sync it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw DatabaseFileError("cannot sync \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes a database file and its companions.
    public static func removeFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}

extension DatabaseFileOperations.DestinationKey {
    /// Whether the copy is unencrypted.
    public var isPlaintext: Bool {
        if case .plaintext = self { return true }
        return false
    }

    /// The key of `ATTACH … KEY ?`, bound as an argument: a passphrase, the
    /// `x'…'` form of a raw key, or an empty key for plaintext.
    func attachKey() throws -> any DatabaseValueConvertible {
        switch self {
        case .plaintext:
            return ""
        case .key(.passphrase(let load)):
            return try load()
        case .key(.rawKey(let load)):
            let key = try load()
            return "x'" + key.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
