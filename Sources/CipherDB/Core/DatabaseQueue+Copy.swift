extension DatabaseQueue {
    /// A connection to an in-memory copy of the database at `path`, for
    /// tests of migrations on fixture databases, or previews: its changes
    /// do not reach the file, and its memory is freed when it is
    /// deallocated.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.inMemoryCopy(fromPath: fixturePath, configuration: config)
    /// try migrator.migrate(dbQueue)
    /// ```
    ///
    /// The configuration opens both the file (read-only) and the copy: it
    /// gives the key of an encrypted file, in `prepareDatabase`, and the
    /// copy gets it too. A copy that the configuration does not key,
    /// of an encrypted file, is refused with `SQLITE_MISUSE`. With
    /// `readonly`, the copy can not be changed.
    public static func inMemoryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try copy(fromPath: path, toPath: ":memory:", configuration: configuration)
    }

    /// A connection to a private, temporary copy of the database at
    /// `path`: its changes do not reach the file, and SQLite deletes it
    /// when the connection is closed or deallocated.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.temporaryCopy(fromPath: fixturePath, configuration: config)
    /// ```
    ///
    /// The configuration opens both the file (read-only) and the copy: it
    /// gives the key of an encrypted file, in `prepareDatabase`, and the
    /// copy is encrypted with it. A copy that the configuration does not
    /// key, of an encrypted file, is refused with `SQLITE_MISUSE`: it
    /// would be written in plaintext. With `readonly`, the copy can not be
    /// changed.
    ///
    /// SQLite writes such a copy into a temporary file, deleted as soon as
    /// it is opened, when its pages do not fit in the page cache; but
    /// SQLCipher as Debian builds it (`TEMP_STORE=2`) keeps temporary
    /// databases in memory: there, the copy is never on disk.
    ///
    /// See <https://www.sqlite.org/inmemorydb.html#temp_db>.
    public static func temporaryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        // SQLite creates a temporary file for the empty path.
        try copy(fromPath: path, toPath: "", configuration: configuration)
    }

    private static func copy(fromPath path: String, toPath copyPath: String, configuration: Configuration) throws -> DatabaseQueue {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        defer { try? source.close() }

        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        let copy = try DatabaseQueue(path: copyPath, configuration: copyConfiguration)
        // Refuses an encrypted source and a destination without a key.
        try source.backup(to: copy)
        if configuration.readonly {
            // The copy was written, so it is not opened read-only: it
            // forbids writes instead (PRAGMA query_only), for good.
            try copy.inDatabase { try $0.beginReadOnly() }
        }
        return copy
    }
}
