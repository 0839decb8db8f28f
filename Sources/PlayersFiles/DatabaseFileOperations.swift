import CipherDB
import Foundation
import Players
import PlayersProtocol

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
        try backup(reader: source.reader, to: destination, destinationKey: destinationKey,
                   replacing: replacing, progress: progress)
    }

    /// An online backup of any database, such as the players server's
    /// (whose schema is not the players one): consistent even while other
    /// connections or processes write, encrypted with `destinationKey`.
    public static func backup(
        reader source: any DatabaseReader,
        to destination: URL,
        destinationKey: DestinationKey,
        replacing: Bool = false,
        progress: Progress? = nil) throws
    {
        try checkDestination(destination, replacing: replacing, protecting: databaseFiles(of: source))
        try writeVerifiedCopy(to: destination, key: destinationKey) { temporary in
            try withDatabase(at: temporary, key: destinationKey) { copy in
                try copy.writeWithoutTransaction { copyDB in
                    try source.read { sourceDB in
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

    /// Writes a copy to a private temporary file next to `destination`
    /// with `write` (which returns the row counts of the original),
    /// verifies it, and renames it into place; removes it if anything
    /// fails.
    private static func writeVerifiedCopy(
        to destination: URL,
        key: DestinationKey,
        write: (_ temporary: URL) throws -> [String: Int]) throws
    {
        let temporary = try createTemporary(for: destination)
        do {
            try writeVerifiedCopy(at: temporary, key: key, write: write)
            try moveIntoPlace(temporary, destination: destination)
        } catch {
            removeFiles(at: temporary)
            throw error
        }
    }

    /// Writes a copy into `temporary` (an empty private file) with `write`,
    /// and verifies it.
    static func writeVerifiedCopy(
        at temporary: URL,
        key: DestinationKey,
        write: (_ temporary: URL) throws -> [String: Int]) throws
    {
        let counts = try write(temporary)
        try verify(temporary, key: key, counts: counts)
    }

    /// The database files of `database`, which a copy must never replace
    /// (none for an in-memory database).
    static func databaseFiles(of database: any DatabaseReader) -> [URL] {
        database.path.hasPrefix("/") ? [URL(fileURLWithPath: database.path)] : []
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
        try checkDestination(destination, replacing: replacing, protecting: [source])
        try writeVerifiedCopy(to: destination, key: destinationKey) { temporary in
            try exportPages(from: source, sourceKey: sourceKey, into: temporary, key: destinationKey)
        }
    }

    /// Exports every page of `source` into `temporary`, an empty file, and
    /// returns the row counts of the source.
    static func exportPages(from source: URL, sourceKey: DestinationKey, into temporary: URL, key: DestinationKey) throws -> [String: Int] {
        // Read-write, because a read-only connection cannot open a WAL
        // database whose -shm file is missing; nothing is written.
        try withDatabase(at: source, key: sourceKey) { sourceQueue in
            try sourceQueue.inDatabase { db in
                let counts = try tableCounts(db)
                let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                try db.execute(sql: "ATTACH DATABASE ? AS export KEY ?",
                               arguments: [temporary.path, try key.attachKey()])
                defer { try? db.execute(sql: "DETACH DATABASE export") }
                _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('export')")
                try db.execute(sql: "PRAGMA export.user_version = \(userVersion)")
                return counts
            }
        }
    }

    // MARK: - JSON export

    /// A snapshot of all players as JSON, encrypted with `destinationKey`
    /// (see ``EncryptedFile``) unless it is `.plaintext`. Written to a
    /// private temporary file, synced, verified (decrypted and decoded,
    /// the same players), then renamed into place.
    public static func exportJSON(
        _ source: AppDatabase,
        to destination: URL,
        destinationKey: DestinationKey,
        replacing: Bool = false) throws
    {
        try checkDestination(destination, replacing: replacing, protecting: databaseFiles(of: source.reader))
        let payload = try source.snapshotPayload()
        let json = try payload.jsonData(prettyPrinted: true)
        let content: Data
        switch destinationKey {
        case .plaintext: content = json
        case .key(let key): content = try EncryptedFile.seal(json, key: key)
        }
        let temporary = try createTemporary(for: destination, contents: content)
        do {
            let written = try Data(contentsOf: temporary)
            let readBack: Data
            switch destinationKey {
            case .plaintext: readBack = written
            case .key(let key): readBack = try EncryptedFile.open(written, key: key)
            }
            guard (try? PlayersPayload.decode(readBack)) == payload else {
                throw DatabaseFileError("the export does not read back as written: it was deleted")
            }
            try moveIntoPlace(temporary, destination: destination)
        } catch {
            removeFiles(at: temporary)
            throw error
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

    /// Opens a queue on a file with a key, runs `body`, and closes it.
    /// The file is created if it does not exist.
    @discardableResult
    public static func withDatabase<T>(at url: URL, key: DestinationKey, _ body: (DatabaseQueue) throws -> T) throws -> T {
        var configuration = Configuration()
        if case .key(let source) = key {
            configuration.prepareDatabase(source.prepare)
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try body(queue)
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
