/// The primary key of a table, or of a view whose primary key a
/// ``DatabaseSchemaSource`` defines.
///
/// ```swift
/// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)
/// let primaryKey = try db.primaryKey("player")
/// primaryKey.columns     // ["id"]
/// primaryKey.rowIDColumn // "id"
/// primaryKey.isRowID     // true
/// ```
///
/// A table without an explicit primary key has the hidden `rowid` for
/// primary key. See <https://www.sqlite.org/rowidtable.html>.
public struct PrimaryKeyInfo: Sendable, Hashable {
    private enum Kind: Sendable, Hashable {
        /// No explicit primary key: the hidden rowid.
        case hiddenRowID
        /// An `INTEGER PRIMARY KEY` column, which aliases the rowid.
        case rowID(ColumnInfo)
        /// Any other primary key, of a table that may or may not have a
        /// rowid (`WITHOUT ROWID` tables and views have none).
        case regular([ColumnInfo], tableHasRowID: Bool)
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    static let hiddenRowID = PrimaryKeyInfo(.hiddenRowID)

    static func rowID(_ column: ColumnInfo) -> PrimaryKeyInfo {
        PrimaryKeyInfo(.rowID(column))
    }

    static func regular(_ columns: [ColumnInfo], tableHasRowID: Bool) -> PrimaryKeyInfo {
        PrimaryKeyInfo(.regular(columns, tableHasRowID: tableHasRowID))
    }

    /// The columns of the primary key, in key order: `["rowid"]` for a
    /// table without an explicit primary key.
    public var columns: [String] {
        switch kind {
        case .hiddenRowID: return [Column.rowID.name]
        case let .rowID(column): return [column.name]
        case let .regular(columns, _): return columns.map(\.name)
        }
    }

    /// The columns of the primary key, in key order, or nil for the hidden
    /// rowid.
    public var columnInfos: [ColumnInfo]? {
        switch kind {
        case .hiddenRowID: return nil
        case let .rowID(column): return [column]
        case let .regular(columns, _): return columns
        }
    }

    /// The column that aliases the rowid (`INTEGER PRIMARY KEY`), or nil
    /// (also for the hidden rowid).
    public var rowIDColumn: String? {
        switch kind {
        case let .rowID(column): return column.name
        case .hiddenRowID, .regular: return nil
        }
    }

    /// Whether the primary key is the rowid, hidden or aliased.
    public var isRowID: Bool {
        switch kind {
        case .hiddenRowID, .rowID: return true
        case .regular: return false
        }
    }

    /// Whether the table has a rowid: false for `WITHOUT ROWID` tables and
    /// for views.
    public var tableHasRowID: Bool {
        switch kind {
        case .hiddenRowID, .rowID: return true
        case let .regular(_, tableHasRowID): return tableHasRowID
        }
    }

    /// The one column that identifies a row fastest: the column that
    /// aliases the rowid, the rowid, or the single column of the primary
    /// key of a `WITHOUT ROWID` table or of a view. Nil for a composite
    /// key without a rowid.
    var fastPrimaryKeyColumn: String? {
        if let rowIDColumn { return rowIDColumn }
        if tableHasRowID { return Column.rowID.name }
        let columns = columns
        return columns.count == 1 ? columns[0] : nil
    }
}
