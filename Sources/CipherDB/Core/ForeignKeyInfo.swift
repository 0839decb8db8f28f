/// A foreign key of a table.
///
/// ```swift
/// // CREATE TABLE book (authorId INTEGER REFERENCES author(id))
/// let foreignKey = try db.foreignKeys(on: "book").first!
/// foreignKey.destinationTable   // "author"
/// foreignKey.originColumns      // ["authorId"]
/// foreignKey.destinationColumns // ["id"]
/// ```
///
/// See <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>.
public struct ForeignKeyInfo: Sendable {
    /// The foreign key id, unique in its table.
    public var id: Int
    /// The referenced table.
    public let destinationTable: String
    /// Pairs of (origin column, destination column), in key order.
    public let mapping: [(origin: String, destination: String)]

    /// The columns of the origin table.
    public var originColumns: [String] { mapping.map(\.origin) }
    /// The columns of the destination table.
    public var destinationColumns: [String] { mapping.map(\.destination) }
}
