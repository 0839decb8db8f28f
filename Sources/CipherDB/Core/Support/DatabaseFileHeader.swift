import CSQLCipher

/// The first bytes of a database file, read through SQLite's own file
/// handles, never through a descriptor of our own.
///
/// A process that closes a descriptor of a file loses every POSIX lock it
/// holds on that file, those of its SQLite connections included. Another
/// process then finds the database unused as it closes its connection: it
/// checkpoints and deletes the WAL and the shared memory that this process
/// still writes to. SQLite's own handles avoid it: SQLite keeps a
/// descriptor open until the process holds no lock on its file.
///
/// See <https://www.sqlite.org/howtocorrupt.html#_posix_advisory_locks_canceled_by_a_separate_thread_doing_close_>.
///
/// ```swift
/// let isPlaintext = DatabaseFileHeader.read(atPath: path, count: 16) == Array("SQLite format 3\0".utf8)
/// ```
package enum DatabaseFileHeader {
    /// The first `count` bytes of the file at `path`, read on a read-only
    /// connection that reads nothing else; nil when the file cannot be
    /// opened or is shorter.
    package static func read(atPath path: String, count: Int) -> [UInt8]? {
        // Through Database: this may be the process's first connection.
        let (code, connection) = Database.openConnection(path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        defer { sqlite3_close(connection) }
        guard code == SQLITE_OK, let connection else { return nil }
        return read(connection, count: count)
    }

    /// The first `count` bytes of the main database file of `connection`;
    /// nil when it has no file (an in-memory database) or a shorter one.
    static func read(_ connection: SQLiteConnection, count: Int) -> [UInt8]? {
        guard let name = sqlite3_db_filename(connection, "main"), name.pointee != 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let code = bytes.withUnsafeMutableBytes { buffer in
            cipherdb_read_database_file(connection, "main", buffer.baseAddress, CInt(count), 0)
        }
        return code == SQLITE_OK ? bytes : nil
    }
}
