import CSQLCipher
import Foundation

// MARK: - Keys

extension Database {
    /// Gives the passphrase of an encrypted database. Call it first thing
    /// in ``Configuration/prepareDatabase(_:)``:
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.prepareDatabase { db in
    ///     try db.usePassphrase(try loadPassphrase())
    /// }
    /// ```
    ///
    /// The key is derived with PBKDF2-SHA1 (64,000 iterations in SQLCipher
    /// 3.4.1: about 30 ms per connection). A new file is encrypted with it;
    /// an existing file that does not match makes the connection fail to
    /// open with `SQLITE_NOTADB`. An empty passphrase is refused.
    ///
    /// The passphrase is copied into a buffer that is wiped as soon as
    /// SQLCipher has it; the `String` itself is beyond this library's reach.
    ///
    /// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#key>.
    public func usePassphrase(_ passphrase: String) throws {
        var bytes = Array(passphrase.utf8)
        defer { SQLSecrets.wipe(&bytes) }
        try bytes.withUnsafeBytes { try useKeyMaterial($0) }
    }

    /// Gives the passphrase of an encrypted database, as bytes, used as
    /// they are, UTF-8 or not (a `String` passphrase is its UTF-8 bytes).
    public func usePassphrase(_ passphrase: Data) throws {
        try passphrase.withUnsafeBytes { try useKeyMaterial($0) }
    }

    /// Gives a raw 256-bit key, which skips key derivation: opening costs
    /// microseconds instead of tens of milliseconds. Keep the key as
    /// secret as a passphrase.
    ///
    /// ```swift
    /// config.prepareDatabase { db in
    ///     try db.useRawKey(try Data(contentsOf: keyFileURL))
    /// }
    /// ```
    ///
    /// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#key> (raw key data).
    public func useRawKey(_ key: Data) throws {
        var material = try SQLSecrets.rawKeyMaterial(key)
        defer { SQLSecrets.wipe(&material) }
        try material.withUnsafeBytes { try useKeyMaterial($0) }
    }

    private func useKeyMaterial(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the passphrase is empty: give a non-empty passphrase or a 32-byte key")
        }
        let code = sqlite3_key(handle, bytes.baseAddress, CInt(bytes.count))
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: code, message: "could not set the database key: \(lastErrorMessage ?? "")")
        }
        hasCodecKey = true
    }

    /// Changes the passphrase of an encrypted database, then checks that
    /// the file really opens with the new one.
    ///
    /// On a ``DatabaseQueue``:
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.changePassphrase("newSecret")
    /// }
    /// ```
    ///
    /// On a ``DatabasePool``, no read may run meanwhile:
    ///
    /// ```swift
    /// try dbPool.barrierWriteWithoutTransaction { db in
    ///     try db.changePassphrase("newSecret")
    ///     dbPool.invalidateReadOnlyConnections()
    /// }
    /// ```
    ///
    /// SQLCipher 3.4.1 may report success without rekeying when another
    /// connection reads the file: this method then throws, and the file
    /// still opens with the old passphrase. Update the passphrase that
    /// `prepareDatabase` gives before connections are opened again.
    ///
    /// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#rekey>.
    public func changePassphrase(_ passphrase: String) throws {
        var bytes = Array(passphrase.utf8)
        defer { SQLSecrets.wipe(&bytes) }
        try bytes.withUnsafeBytes { try rekey(with: $0) }
    }

    /// Changes the passphrase of an encrypted database, as bytes.
    public func changePassphrase(_ passphrase: Data) throws {
        try passphrase.withUnsafeBytes { try rekey(with: $0) }
    }

    /// Replaces the key (passphrase or raw) with a raw 256-bit key.
    public func changeRawKey(_ key: Data) throws {
        var material = try SQLSecrets.rawKeyMaterial(key)
        defer { SQLSecrets.wipe(&material) }
        try material.withUnsafeBytes { try rekey(with: $0) }
    }

    private func rekey(with bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the new passphrase is empty: give a non-empty passphrase or a 32-byte key")
        }
        guard try isEncrypted else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the database is not encrypted: export it into a new encrypted database with sqlcipher_export instead")
        }
        let code = sqlite3_rekey(handle, bytes.baseAddress, CInt(bytes.count))
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: code, message: "could not change the database key: \(lastErrorMessage ?? "")")
        }
        try verifyKey(bytes)
    }

    /// Opens a second connection with the new key: the only proof that the
    /// pages on disk were rewritten.
    private func verifyKey(_ bytes: UnsafeRawBufferPointer) throws {
        guard !isInMemory else { return }
        var probe: SQLiteConnection?
        defer { sqlite3_close_v2(probe) }
        var code = sqlite3_open_v2(path, &probe, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        if code == SQLITE_OK {
            code = sqlite3_key(probe, bytes.baseAddress, CInt(bytes.count))
        }
        if code == SQLITE_OK {
            code = sqlite3_exec(probe, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: .SQLITE_NOTADB,
                message: "the passphrase change did not take effect (another connection may have been reading): the database still opens with the old passphrase; close every connection and try again")
        }
    }

    /// Whether the path is an in-memory or temporary database, which
    /// cannot be opened a second time.
    var isInMemory: Bool {
        path.isEmpty || path == ":memory:" || (path.hasPrefix("file:") && path.contains("mode=memory"))
            || path.hasPrefix("file::memory:")
    }
}

// MARK: - Checks

extension Database {
    /// The SQLCipher version of the linked library, such as "3.4.1".
    public var cipherVersion: String {
        get throws {
            try String.fetchOne(self, sql: "PRAGMA cipher_version") ?? ""
        }
    }

    /// Whether the main database of this connection is encrypted (has a
    /// key). Unknown pragmas return nothing in SQLite, and SQLCipher only
    /// answers `cipher_provider` for a keyed database.
    public var isEncrypted: Bool {
        get throws {
            // No key: the pragma returns no row, and not even a column.
            guard let row = try Row.fetchOne(self, sql: "PRAGMA cipher_provider"), row.count > 0 else { return false }
            return !((row[0] as String?) ?? "").isEmpty
        }
    }

    /// Refuses to run on a plain SQLite library, where every "encrypted"
    /// database would be written as plaintext.
    static func validateSQLCipher(_ db: Database) throws {
        guard try !db.cipherVersion.isEmpty else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "CipherDB is linked with plain SQLite instead of SQLCipher: databases would not be encrypted; rebuild against libsqlcipher and do not link libsqlite3")
        }
    }
}

// MARK: - Secret handling

/// Helpers that keep keys out of memory, errors and logs.
enum SQLSecrets {
    /// Overwrites a buffer in a way the optimizer cannot remove.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress {
                explicit_bzero(base, buffer.count)
            }
        }
    }

    /// SQLCipher's raw key syntax: `x'` + 64 hexadecimal digits + `'`.
    static func rawKeyMaterial(_ key: Data) throws -> [UInt8] {
        guard key.count == 32 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a raw key must be 32 bytes long, not \(key.count)")
        }
        let hexDigits = Hexadecimal.uppercaseDigits
        var material: [UInt8] = []
        material.reserveCapacity(67)
        material.append(UInt8(ascii: "x"))
        material.append(UInt8(ascii: "'"))
        for byte in key {
            material.append(hexDigits[Int(byte >> 4)])
            material.append(hexDigits[Int(byte & 0x0F)])
        }
        material.append(UInt8(ascii: "'"))
        return material
    }

    private static let keyPragma = try! NSRegularExpression(
        pattern: #"^(\s*PRAGMA\s+(?:\w+\.)?(?:re|hex|hexre)?key\b).*$"#,
        options: [.caseInsensitive, .dotMatchesLineSeparators])

    private static let attachKey = try! NSRegularExpression(
        pattern: #"(\bKEY\s+)(?:'(?:[^']|'')*'|"(?:[^"]|"")*"|[xX]'[0-9A-Fa-f]*')"#,
        options: [.caseInsensitive])

    /// SQL with the literals of `PRAGMA key`, `PRAGMA rekey` and
    /// `ATTACH ... KEY '...'` replaced, so that errors and traces never
    /// show a passphrase typed into SQL.
    static func redacted(_ sql: String) -> String {
        guard sql.range(of: "key", options: .caseInsensitive) != nil else { return sql }
        let range = NSRange(sql.startIndex..., in: sql)
        var result = keyPragma.stringByReplacingMatches(in: sql, range: range, withTemplate: "$1 = <redacted>")
        result = attachKey.stringByReplacingMatches(
            in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "$1<redacted>")
        return result
    }
}
