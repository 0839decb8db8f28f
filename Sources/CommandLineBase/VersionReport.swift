import CipherDB

/// What `players --version` and `players-server --version` print: the
/// project's version, the SQLCipher and SQLite versions the binary runs
/// with (read from the linked library, not from its headers), and the
/// build mode.
///
/// ```
/// players 0.20.0 (SQLCipher 3.4.1 community, SQLite 3.15.2, debug build)
/// ```
public enum VersionReport {
    /// The version of this release of CipherDB and its tools.
    public static let projectVersion = "0.20.0"

    /// `debug` or `release`.
    public static var buildMode: String {
        #if DEBUG
        "debug"
        #else
        "release"
        #endif
    }

    /// The line that `--version` prints for `command`.
    public static func line(command: String) -> String {
        let (cipher, sqlite) = libraryVersions()
        return "\(command) \(projectVersion) (SQLCipher \(cipher), SQLite \(sqlite), \(buildMode) build)"
    }

    /// The SQLCipher and SQLite versions of the linked library, read from an
    /// in-memory connection: `PRAGMA cipher_version` answers only when the
    /// library is SQLCipher.
    private static func libraryVersions() -> (cipher: String, sqlite: String) {
        do {
            let dbQueue = try DatabaseQueue()
            return try dbQueue.read { db in
                let cipher = try db.cipherVersion
                let sqlite = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "unknown"
                return (cipher.isEmpty ? "missing" : cipher, sqlite)
            }
        } catch {
            return ("unknown", "unknown")
        }
    }
}
