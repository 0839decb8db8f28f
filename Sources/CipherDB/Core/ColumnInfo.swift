/// A column of a table or a view, as `PRAGMA table_info` describes it.
///
/// ```swift
/// let columns = try db.columns(in: "player")
/// columns.map(\.name) // ["id", "name", "score"]
/// ```
///
/// See <https://www.sqlite.org/pragma.html#pragma_table_info>.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The declared type, such as "INTEGER" or "TEXT" (may be empty).
    public let type: String
    /// Whether the column has a NOT NULL constraint.
    public let isNotNull: Bool
    /// The SQL of the default value, if any.
    public let defaultValueSQL: String?
    /// The 1-based position of the column in the primary key, or 0 for a
    /// column outside of the primary key.
    public let primaryKeyIndex: Int
    /// The position of the column in the table (`cid`).
    public let position: Int

    init(row: Row) {
        name = row["name"]
        type = row["type"] ?? ""
        isNotNull = row["notnull"]
        defaultValueSQL = row["dflt_value"]
        primaryKeyIndex = row["pk"]
        position = row["cid"]
    }

    private init(_ column: ColumnInfo, primaryKeyIndex: Int) {
        name = column.name
        type = column.type
        isNotNull = column.isNotNull
        defaultValueSQL = column.defaultValueSQL
        position = column.position
        self.primaryKeyIndex = primaryKeyIndex
    }

    /// The same column, at another position in the primary key: the
    /// columns of a view that a schema source makes its primary key.
    func withPrimaryKeyIndex(_ primaryKeyIndex: Int) -> ColumnInfo {
        ColumnInfo(self, primaryKeyIndex: primaryKeyIndex)
    }
}
