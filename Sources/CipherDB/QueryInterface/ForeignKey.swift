/// The columns that join two tables, for the definition of an association
/// when the database schema has no foreign key, or more than one.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self, using: ForeignKey(["authorId"]))
///     static let translator = belongsTo(Author.self, key: "translator",
///                                       using: ForeignKey(["translatorId"], to: ["id"]))
/// }
/// ```
///
/// The origin columns are the ones of the table that holds the foreign key
/// (the book); the destination columns, the ones it refers to (by default,
/// the primary key of the author table).
public struct ForeignKey: Equatable, Sendable {
    var originColumns: [String]
    var destinationColumns: [String]?

    /// A foreign key from `originColumns` to `destinationColumns` (by
    /// default, the primary key of the referenced table).
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// A foreign key from `originColumns` to `destinationColumns` (by
    /// default, the primary key of the referenced table).
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns?.map(\.name))
    }
}
