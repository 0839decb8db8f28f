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
        try SQLSecrets.withRawKeyMaterial(key) { try useKeyMaterial($0) }
    }

    /// Gives the key of an encrypted database from a key source: its
    /// passphrase or its raw key. ``DatabaseKeySource/configure(_:)`` calls
    /// it on every connection.
    public func useKey(_ key: DatabaseKeySource) throws {
        try key.withKeyMaterial { try useKeyMaterial($0) }
    }

    /// Gives the key of `key`, with a passphrase's key derived once per
    /// file for all the connections that share `cache`
    /// (``DatabaseKeySource/configure(_:)``). A file that does not exist
    /// yet, and a passphrase that SQLCipher takes as a raw key, get the
    /// passphrase itself.
    func useKey(_ key: DatabaseKeySource, cache: PassphraseKeyCache) throws {
        guard case .passphrase(let load) = key else { return try useKey(key) }
        try load().withUnsafeBytes { passphrase in
            guard !passphrase.isEmpty, !SQLSecrets.isRawKeySyntax(passphrase), let salt = mainFileSalt(),
                  let rounds = try Int.fetchOne(self, sql: "PRAGMA cipher_default_kdf_iter"), rounds > 0
            else { return try useKeyMaterial(passphrase) }
            try cache.withKeyMaterial(passphrase: passphrase, salt: salt, rounds: rounds) { try useKeyMaterial($0) }
            cachedKeyRounds = rounds
        }
    }

    /// The salt of the main database file (its first 16 bytes), or nil for
    /// an in-memory database and a file shorter than that. Read through
    /// the connection's own file handle: closing a descriptor of the file
    /// would drop the locks of the process's other connections to it
    /// (``DatabaseFileHeader``).
    private func mainFileSalt() -> [UInt8]? {
        DatabaseFileHeader.read(handle, count: PassphraseKeyCache.saltLength)
    }

    /// Whether the main database is a file shorter than its salt: a new,
    /// empty file.
    var isMainFileEmpty: Bool {
        guard let name = sqlite3_db_filename(handle, "main"), name.pointee != 0 else { return false }
        return mainFileSalt() == nil
    }

    /// Checks, before a statement of a connection keyed while its file was
    /// empty, that the file is still empty or has this connection's salt.
    /// Another connection may have written it first, with a salt of its
    /// own: this one then reads nothing, and its statements would fail as
    /// if the database were empty ("no such table"), since SQLite compiles
    /// them against the empty schema it read at open. Throws
    /// `SQLITE_NOTADB` then, saying why, at every statement.
    func checkSaltOfNewFile() throws {
        guard !isMainFileEmpty else { return }
        // Reads the first page, with this connection's key; a check that
        // the app did not ask for, left out of its trace.
        hidesStatementsFromTrace = true
        let code = sqlite3_exec(handle, "PRAGMA schema_version", nil, nil, nil)
        hidesStatementsFromTrace = false
        switch code & 0xFF {
        case SQLITE_OK:
            wasKeyedOnEmptyFile = false
        case SQLITE_NOTADB:
            throw explainingSaltMismatch(DatabaseError(resultCode: code, message: lastErrorMessage))
        default:
            // Busy or locked: checked again at the next statement.
            break
        }
    }

    /// `error`, explained when it is SQLITE_NOTADB on a connection keyed
    /// while its file was empty, which another connection then wrote with
    /// a salt of its own.
    func explainingSaltMismatch(_ error: DatabaseError) -> DatabaseError {
        guard wasKeyedOnEmptyFile, error.resultCode == .SQLITE_NOTADB, !isMainFileEmpty else { return error }
        return error.explained(
            "this connection was opened on the empty file of a new encrypted database, which another connection then wrote with a salt of its own: open the other connections after the first write, or use a DatabasePool")
    }

    /// Refuses a connection whose `prepareDatabase` changed `kdf_iter` after
    /// a ``PassphraseKeyCache`` derived its key with other rounds: the key
    /// would not be the one the file was made with.
    func validateCachedKeyRounds() throws {
        guard let rounds = cachedKeyRounds,
              let current = try Int.fetchOne(self, sql: "PRAGMA kdf_iter"), current != rounds else { return }
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "PRAGMA kdf_iter was set after DatabaseKeySource.configure gave the key: set PRAGMA cipher_default_kdf_iter before opening instead, or give the passphrase with usePassphrase(_:)")
    }

    private func useKeyMaterial(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else {
            throw SQLSecrets.emptyPassphrase(isNew: false)
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
        try SQLSecrets.withRawKeyMaterial(key) { try rekey(with: $0) }
    }

    private func rekey(with bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else {
            throw SQLSecrets.emptyPassphrase(isNew: true)
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
        var (code, probe) = Database.openConnection(path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        defer { sqlite3_close_v2(probe) }
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

// MARK: - Attached databases

extension Database {
    /// Attaches the database file at `path` as `schemaName`, with its key,
    /// or in plaintext when `key` is ``Swift/Optional/plaintext``: then
    /// `KEY ''` is given, because without a KEY clause SQLCipher would
    /// use the key of the main database. A new file is created, encrypted
    /// with `key`: the way to write a copy with another key, or without
    /// one, with `sqlcipher_export`:
    ///
    /// ```swift
    /// try db.attachDatabase(atPath: copyPath, as: "copy", key: .rawKey { try loadKey() })
    /// _ = try Row.fetchAll(db, sql: "SELECT sqlcipher_export('copy')")
    /// try db.detachDatabase(named: "copy")
    /// ```
    ///
    /// The key is bound as an argument of `ATTACH DATABASE ? AS … KEY ?`:
    /// it is never in the SQL, an error or a trace, and the bytes CipherDB
    /// copies are wiped once SQLCipher has them. Run it outside of a
    /// transaction, as SQLite requires. An empty passphrase is refused: it
    /// would attach the file in plaintext.
    ///
    /// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#attach> and
    /// <https://www.zetetic.net/sqlcipher/sqlcipher-api/#sqlcipher_export>.
    public func attachDatabase(atPath path: String, as schemaName: String, key: DatabaseKeySource?) throws {
        let statement = try makeStatement(sql: "ATTACH DATABASE ? AS \(schemaName.quotedDatabaseIdentifier) KEY ?")
        guard let key else {
            try statement.execute(arguments: [path, ""])
            return
        }
        try key.withKeyMaterial { material in
            guard material.count > 0 else {
                throw SQLSecrets.emptyPassphrase(isNew: false)
            }
            try statement.prepareExecution(arguments: nil)
            let sqliteStatement = statement.sqliteStatement
            // The key is bound without a copy (a nil destructor is
            // SQLITE_STATIC), and unbound before its bytes are wiped.
            defer { sqlite3_clear_bindings(sqliteStatement) }
            for code in [
                sqlite3_bind_text(sqliteStatement, 1, path, -1, SQLITE_TRANSIENT),
                sqlite3_bind_blob(sqliteStatement, 2, material.baseAddress, CInt(material.count), nil),
            ] where code != SQLITE_OK {
                throw DatabaseError(resultCode: code, message: lastErrorMessage, sql: statement.sql)
            }
            try statement.runToCompletion()
        }
    }

    /// Detaches the database attached as `schemaName`.
    ///
    /// See <https://www.sqlite.org/lang_detach.html>.
    public func detachDatabase(named schemaName: String) throws {
        try execute(sql: "DETACH DATABASE \(schemaName.quotedDatabaseIdentifier)")
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

    /// Whether SQLCipher runs in FIPS mode: `"1"` or `"0"`, or nil for a
    /// connection without a key.
    ///
    /// ```swift
    /// try db.cipherFipsStatus // "0"
    /// ```
    public var cipherFipsStatus: String? {
        get throws { try cipherPragmaValue("cipher_fips_status") }
    }

    /// The cryptographic library of SQLCipher, such as `"openssl"`, or nil
    /// for a connection without a key.
    public var cipherProvider: String? {
        get throws { try cipherPragmaValue("cipher_provider") }
    }

    /// The version of the cryptographic library of SQLCipher, such as
    /// `"OpenSSL 3.0.3 3 May 2022"`, or nil for a connection without a key.
    public var cipherProviderVersion: String? {
        get throws { try cipherPragmaValue("cipher_provider_version") }
    }

    /// Whether the main database of this connection is encrypted (has a
    /// key). Unknown pragmas return nothing in SQLite, and SQLCipher only
    /// answers `cipher_provider` for a keyed database.
    public var isEncrypted: Bool {
        get throws {
            try !(cipherPragmaValue("cipher_provider") ?? "").isEmpty
        }
    }

    /// The value of an SQLCipher pragma that describes the key of the
    /// connection, or nil without a key: the pragma then returns no row,
    /// and not even a column.
    private func cipherPragmaValue(_ pragma: String) throws -> String? {
        guard let row = try Row.fetchOne(self, sql: "PRAGMA \(pragma)"), row.count > 0 else { return nil }
        return row[0]
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
    /// The error of an empty passphrase: SQLCipher would take it as no
    /// key at all, and read or write plaintext.
    static func emptyPassphrase(isNew: Bool) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_MISUSE,
                      message: "the \(isNew ? "new " : "")passphrase is empty: give a non-empty passphrase or a 32-byte key")
    }

    /// Overwrites a buffer in a way the optimizer cannot remove.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress {
                explicit_bzero(base, buffer.count)
            }
        }
    }

    /// Calls `body` with the raw key syntax of `key`, wiped afterwards.
    static func withRawKeyMaterial<T>(_ key: Data, _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        var material = try rawKeyMaterial(key)
        defer { wipe(&material) }
        return try material.withUnsafeBytes(body)
    }

    /// SQLCipher's raw key syntax: `x'` + 64 hexadecimal digits + `'`.
    private static func rawKeyMaterial(_ key: Data) throws -> [UInt8] {
        guard key.count == 32 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a raw key must be 32 bytes long, not \(key.count)")
        }
        return rawKeySyntax(key, [UInt8]())
    }

    /// SQLCipher's raw key syntax for `key` and, when not empty, the
    /// file's `salt`: `x'` + their hexadecimal digits + `'`.
    static func rawKeySyntax(_ key: some Collection<UInt8>, _ salt: [UInt8]) -> [UInt8] {
        let hexDigits = Hexadecimal.uppercaseDigits
        var material: [UInt8] = []
        material.reserveCapacity(3 + 2 * (key.count + salt.count))
        material.append(UInt8(ascii: "x"))
        material.append(UInt8(ascii: "'"))
        for byte in key {
            material.append(hexDigits[Int(byte >> 4)])
            material.append(hexDigits[Int(byte & 0x0F)])
        }
        for byte in salt {
            material.append(hexDigits[Int(byte >> 4)])
            material.append(hexDigits[Int(byte & 0x0F)])
        }
        material.append(UInt8(ascii: "'"))
        return material
    }

    /// Whether SQLCipher takes `bytes` as a raw key rather than a
    /// passphrase: `x'` (either case) then 64 or 96 hexadecimal digits,
    /// whatever the last byte (SQLCipher 3.4.1 checks only the length).
    static func isRawKeySyntax(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == 67 || bytes.count == 99,
              bytes[0] == UInt8(ascii: "x") || bytes[0] == UInt8(ascii: "X"),
              bytes[1] == UInt8(ascii: "'") else { return false }
        return bytes[2..<(bytes.count - 1)].allSatisfy { Hexadecimal.value(of: $0) != nil }
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
