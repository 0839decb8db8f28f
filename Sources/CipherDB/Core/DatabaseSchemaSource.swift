/// A type that completes the schema that SQLite reports: today, the
/// primary keys of views, so that records and associations can be
/// defined on views as on tables.
///
/// ```swift
/// struct ViewPrimaryKeys: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "playerView" ? ["id"] : nil
///     }
/// }
///
/// var config = Configuration()
/// config.schemaSource = ViewPrimaryKeys()
/// ```
///
/// Migrations do not see it: they run on the schema as SQLite knows it.
public protocol DatabaseSchemaSource: Sendable {
    /// The columns of the primary key of a view, or nil for the default
    /// (a view has no primary key).
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        nil
    }

    /// A schema source that asks this one first, then `other` for what
    /// this one leaves to the default. Answers are never merged.
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

/// See ``DatabaseSchemaSource/then(_:)``.
struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        if let columns = try first.columnsForPrimaryKey(db, inView: view) { return columns }
        return try second.columnsForPrimaryKey(db, inView: view)
    }
}

extension Database {
    /// Runs `body` with another schema source (nil: SQLite's schema alone),
    /// and restores the current one. The schema cache is cleared before and
    /// after.
    ///
    /// ```swift
    /// let primaryKey = try db.withSchemaSource(nil) { try db.primaryKey("playerView") }
    /// ```
    public func withSchemaSource<T>(_ schemaSource: (any DatabaseSchemaSource)?, execute body: () throws -> T) rethrows -> T {
        let previous = self.schemaSource
        self.schemaSource = schemaSource
        clearStatementCache()
        defer {
            self.schemaSource = previous
            clearStatementCache()
        }
        return try body()
    }
}
