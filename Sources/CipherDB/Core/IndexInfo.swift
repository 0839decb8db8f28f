/// An index of a table.
///
/// ```swift
/// // CREATE UNIQUE INDEX player_email ON player(email)
/// let index = try db.indexes(on: "player").first!
/// index.columns  // ["email"]
/// index.isUnique // true
/// index.origin   // .createIndex
/// ```
///
/// See <https://www.sqlite.org/pragma.html#pragma_index_list>.
public struct IndexInfo: Sendable, Hashable {
    /// How an index was made.
    public struct Origin: RawRepresentable, Hashable, Sendable, DatabaseValueConvertible {
        /// "c", "u" or "pk", as `PRAGMA index_list` says.
        public var rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `CREATE INDEX`.
        public static let createIndex = Origin(rawValue: "c")

        /// A `UNIQUE` constraint.
        public static let uniqueConstraint = Origin(rawValue: "u")

        /// A `PRIMARY KEY` constraint.
        public static let primaryKeyConstraint = Origin(rawValue: "pk")
    }

    /// The index name.
    public let name: String
    /// The indexed columns, in index order.
    public let columns: [String]
    /// Whether the index is unique.
    public let isUnique: Bool
    /// How the index was made.
    public let origin: Origin
}
