/// The error thrown when a record is not found: an update or a
/// `find(_:key:)` that matches no row.
///
/// ```swift
/// do {
///     try player.update(db)
/// } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
///     print("Key \(key) was not found in table \(table).")
/// }
/// ```
public enum RecordError: Error, Sendable {
    /// No row of the table has this key (primary key or unique key
    /// columns, with their values).
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])
}

/// The name of ``RecordError`` before GRDB 7.
@available(*, deprecated, renamed: "RecordError")
public typealias PersistenceError = RecordError

extension RecordError: CustomStringConvertible {
    /// `Key not found in table player: [id:1]`. The key values are shown,
    /// as in GRDB: do not log this description where they must not be seen.
    public var description: String {
        switch self {
        case let .recordNotFound(databaseTableName: table, key: key):
            // Sorted columns, so that a composite key always reads the same.
            let columns = key.keys.sorted()
            let row = Row(values: ContiguousArray(columns.map { key[$0]! }), layout: RowLayout(columnNames: columns))
            return "Key not found in table \(table): \(row)"
        }
    }
}

// MARK: - Building the error

extension TableRecord {
    /// The error of a missing record with this primary key (or a
    /// database error if the table has no single-column primary key).
    ///
    /// ```swift
    /// guard let player = try Player.fetchOne(db, key: 42) else {
    ///     throw Player.recordNotFound(db, key: 42)
    /// }
    /// ```
    public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
        do {
            let columns = try db.cachedPrimaryKey(databaseTableName).columns
            precondition(columns.count == 1,
                         "Filtering by primary key requires a single-column primary key in the table '\(databaseTableName)'")
            return RecordError.recordNotFound(databaseTableName: databaseTableName, key: [columns[0]: key.databaseValue])
        } catch {
            return error
        }
    }

    /// The error of a missing record with this key.
    ///
    /// ```swift
    /// throw Player.recordNotFound(key: ["email": "arthur@example.com"])
    /// ```
    public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
        RecordError.recordNotFound(databaseTableName: databaseTableName, key: key.mapValues { $0?.databaseValue ?? .null })
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The error of a missing record with this id.
    public static func recordNotFound(_ db: Database, id: ID) -> any Error {
        recordNotFound(db, key: id)
    }
}

extension TableRecord where Self: EncodableRecord {
    /// The error of a missing record with the primary key of this record.
    ///
    /// ```swift
    /// guard try player.exists(db) else {
    ///     throw player.recordNotFound(db)
    /// }
    /// ```
    public func recordNotFound(_ db: Database) -> any Error {
        do {
            let table = type(of: self).databaseTableName
            let columns = try db.cachedPrimaryKey(table).columns
            let container = try PersistenceContainer(self)
            let key = Dictionary(columns.map { ($0, container.databaseValue(forColumn: $0) ?? .null) },
                                 uniquingKeysWith: { first, _ in first })
            return RecordError.recordNotFound(databaseTableName: table, key: key)
        } catch {
            return error
        }
    }
}
