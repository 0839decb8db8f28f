import CSQLCipher
import Foundation

/// The baseline: direct `sqlite3_*` calls on the same SQLCipher, as
/// hand-written C would make them (one prepared statement, reset and
/// rebind; return codes checked, nothing else).
final class RawSQLite {
    let handle: OpaquePointer

    init(path: String, mode: EncryptionMode) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw BenchError("sqlite3_open_v2 \(path): \(code)")
        }
        self.handle = handle
        if let material = mode.keyMaterial {
            try check(material.withUnsafeBytes { sqlite3_key(handle, $0.baseAddress, Int32($0.count)) })
        }
    }

    deinit {
        sqlite3_close(handle)
    }

    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
        return statement!
    }

    func check(_ code: Int32) throws {
        guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
            throw BenchError("SQLite error \(code): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension RawSQLite {
    /// Tells SQLite to copy bound text before the bind call returns.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds a Swift string, as a C caller would with `SQLITE_TRANSIENT`.
    static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) {
        text.withCString { _ = sqlite3_bind_text(statement, index, $0, -1, transient) }
    }

    /// Steps a statement that returns no row, then resets it.
    func run(_ statement: OpaquePointer) throws {
        try check(sqlite3_step(statement))
        sqlite3_reset(statement)
    }
}

/// Deletes a database file and its companions (WAL, shared memory,
/// rollback journal), so that a workload starts from nothing.
func removeDatabaseFiles(_ path: String) throws {
    for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.removeItem(atPath: path + suffix)
    }
}
