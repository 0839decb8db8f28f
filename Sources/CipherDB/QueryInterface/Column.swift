/// A type that names a column: ``Column``, or an enum of column names.
///
/// ```swift
/// struct Player: Codable, FetchableRecord, PersistableRecord {
///     var name: String
///     enum Columns {
///         static let name = Column(CodingKeys.name)
///     }
/// }
/// ```
public protocol ColumnExpression: SQLSpecificExpressible {
    /// The column name.
    var name: String { get }
}

extension ColumnExpression {
    public var sqlExpression: SQLExpression { .column(name) }

    /// The column, never qualified with a table: for a column of the
    /// selection (`Player.select(…).order(Column("total").detached)`), or
    /// an alias made with `forKey(_:)`.
    public var detached: SQLExpression {
        SQL(sql: name.quotedDatabaseIdentifier).sqlExpression
    }
}

extension ColumnExpression where Self == Column {
    /// The hidden rowid column: `Player.filter(.rowID == 1)`.
    public static var rowID: Self { Column.rowID }
}

extension SQLExpressible where Self == Column {
    /// The hidden rowid column, where an expression is expected.
    public static var rowID: Self { Column.rowID }
}

extension SQLSelectable where Self == Column {
    /// The hidden rowid column, in a selection:
    /// `static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }`
    /// selects `*, "rowid"`.
    public static var rowID: Self { Column.rowID }
}

extension ColumnExpression where Self: RawRepresentable, RawValue == String {
    /// Enums of strings name columns: `enum Columns: String, ColumnExpression { case name }`.
    public var name: String { rawValue }
}

/// A column of a table.
///
/// ```swift
/// let players = try Player.filter(Column("score") > 1000).fetchAll(db)
/// ```
///
/// `Column` is neither `Equatable` nor expressible by a string literal, as in
/// GRDB: `Column("name") == "Arthur"` must build the SQL comparison
/// `"name" = 'Arthur'`, never Swift's comparison of two columns (a `Bool`).
public struct Column: ColumnExpression, Sendable {
    /// The hidden rowid column.
    public static let rowID = Column("rowid")

    public var name: String

    /// A column with that name.
    public init(_ name: String) {
        self.name = name
    }

    /// The column named by a coding key: `Column(CodingKeys.name)`.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}
