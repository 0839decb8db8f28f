extension Database {
    /// The declared type of a column, which gives it its SQLite affinity.
    ///
    /// See <https://www.sqlite.org/datatype3.html#determination_of_column_affinity>.
    public struct ColumnType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let text = ColumnType(rawValue: "TEXT")
        public static let integer = ColumnType(rawValue: "INTEGER")
        public static let double = ColumnType(rawValue: "DOUBLE")
        public static let real = ColumnType(rawValue: "REAL")
        public static let numeric = ColumnType(rawValue: "NUMERIC")
        public static let boolean = ColumnType(rawValue: "BOOLEAN")
        public static let blob = ColumnType(rawValue: "BLOB")
        public static let date = ColumnType(rawValue: "DATE")
        public static let datetime = ColumnType(rawValue: "DATETIME")
        /// JSON stored as text (SQLite 3.15.2 has no JSON functions).
        public static let jsonText = ColumnType(rawValue: "TEXT")
        /// `ANY`, for the columns of STRICT tables (SQLite 3.37). Elsewhere
        /// SQLite gives it the NUMERIC affinity; omit the type for none:
        /// `t.column("value")`.
        public static let any = ColumnType(rawValue: "ANY")
    }

    /// What a foreign key does when the referenced row is deleted or its
    /// key changes.
    ///
    /// See <https://www.sqlite.org/foreignkeys.html#fk_actions>.
    public enum ForeignKeyAction: String, Sendable {
        case cascade = "CASCADE"
        case restrict = "RESTRICT"
        case setNull = "SET NULL"
        case setDefault = "SET DEFAULT"
    }
}

/// Options of `CREATE TABLE`.
public struct TableOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `CREATE TABLE IF NOT EXISTS`.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// `CREATE TEMPORARY TABLE`.
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// `… WITHOUT ROWID`. See <https://www.sqlite.org/withoutrowid.html>.
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// `… STRICT`. STRICT tables need SQLite 3.37: SQLCipher 3.4.1 (SQLite
    /// 3.15.2) cannot create them, and creating one throws.
    /// See <https://www.sqlite.org/stricttables.html>.
    public static let strict = TableOptions(rawValue: 1 << 3)
}

extension SQLGenerationContext {
    /// A context for DDL, where SQLite accepts no parameter: values are
    /// written as SQL literals.
    static func inliningValues(_ db: Database) -> SQLGenerationContext {
        let context = SQLGenerationContext(db)
        context.inlinesValues = true
        return context
    }
}
