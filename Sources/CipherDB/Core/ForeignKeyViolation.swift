/// A row that references a missing row, as `PRAGMA foreign_key_check`
/// reports it.
///
/// ```swift
/// for violation in try db.foreignKeyViolations() {
///     print(violation) // FOREIGN KEY constraint violation - from book to author, in rowid 1
/// }
/// ```
///
/// See <https://www.sqlite.org/pragma.html#pragma_foreign_key_check>.
public struct ForeignKeyViolation: Sendable, Hashable {
    /// The table of the row that holds the foreign key.
    public var originTable: String
    /// The rowid of that row. For a row of a `WITHOUT ROWID` table, later
    /// SQLites give nil, and SQLite 3.15.2 a number that names no row.
    public var originRowID: Int64?
    /// The referenced table.
    public var destinationTable: String
    /// The id of the foreign key in the origin table
    /// (``ForeignKeyInfo/id``).
    public var foreignKeyId: Int

    /// A description of the violation with the columns of the foreign key
    /// and the offending row, when they can be read.
    ///
    /// ```swift
    /// try violation.failureDescription(db)
    /// // FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:42]
    /// ```
    public func failureDescription(_ db: Database) throws -> String {
        // SQLite 3.15.2 reports a rowid for the rows of a WITHOUT ROWID
        // table too, where later versions report NULL: it names no row.
        let originRowID = try db.primaryKey(originTable).tableHasRowID ? originRowID : nil
        let foreignKey = try db.foreignKeys(on: originTable).first { $0.id == foreignKeyId }
        var description = "FOREIGN KEY constraint violation - from \(originTable)"
        if let foreignKey {
            description += "(\(foreignKey.originColumns.joined(separator: ", ")))"
            description += " to \(destinationTable)(\(foreignKey.destinationColumns.joined(separator: ", ")))"
        } else {
            description += " to \(destinationTable)"
        }
        if let originRowID {
            let row = try Row.fetchOne(db, sql: "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = ?", arguments: [originRowID])
            description += ", in \(row.map(String.init(describing:)) ?? "rowid \(originRowID)")"
        }
        return description
    }

    /// The `SQLITE_CONSTRAINT_FOREIGNKEY` error of the violation.
    public func databaseError(_ db: Database) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
            message: (try? failureDescription(db)) ?? description)
    }
}

extension ForeignKeyViolation: FetchableRecord {
    public init(row: Row) {
        originTable = row[0]
        originRowID = row[1]
        destinationTable = row[2]
        foreignKeyId = row[3]
    }
}

extension ForeignKeyViolation: CustomStringConvertible {
    public var description: String {
        var description = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID {
            description += ", in rowid \(originRowID)"
        }
        return description
    }
}
