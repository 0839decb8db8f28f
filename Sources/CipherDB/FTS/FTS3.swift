/// The FTS3 module of full-text search: a virtual table whose rows are
/// found by the words of their text.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS3()) { t in
///     t.column("title")
///     t.column("body")
/// }
/// let pattern = FTS3Pattern(matchingAllTokensIn: "moby dick")
/// let books = try Row.fetchAll(db, Table("book").matching(pattern))
/// ```
///
/// See <https://www.sqlite.org/fts3.html>.
public struct FTS3: Sendable {
    /// What the `unicode61` tokenizer does with diacritics.
    public enum Diacritics: Sendable {
        /// Accents are kept: "e" does not match "é".
        case keep
        /// Accents are removed from Latin letters that hold a single
        /// one (SQLite's `remove_diacritics=1`, the default).
        case removeLegacy
        /// Accents are removed from every letter (`remove_diacritics=2`,
        /// SQLite 3.27: SQLCipher 3.4.1 refuses it).
        case remove
    }

    public init() {}

    /// The tokens of `string` for `tokenizer`, in order: what a search
    /// of an FTS3 or FTS4 table of this tokenizer matches.
    ///
    /// ```swift
    /// try FTS3.tokenize("SQLite database") // ["sqlite", "database"]
    /// ```
    public static func tokenize(_ string: String, withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) throws -> [String] {
        // An in-memory database of its own: nothing is written anywhere.
        try DatabaseQueue().inDatabase { (db) throws in
            try db.execute(sql: "CREATE VIRTUAL TABLE tokens USING fts3tokenize(\(tokenizer.tokenizeTableArguments))")
            return try String.fetchAll(db, sql: "SELECT token FROM tokens WHERE input = ? ORDER BY position", arguments: [string])
        }
    }
}

extension FTS3: VirtualTableModule {
    public var moduleName: String { "fts3" }

    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) -> [String] {
        definition.columns + (definition.tokenizer.map { ["tokenize=\($0.sql)"] } ?? [])
    }

    public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition) {}
}

/// The columns and tokenizer of an FTS3 table, which the body of
/// ``Database/create(virtualTable:options:using:_:)`` sets.
public final class FTS3TableDefinition {
    fileprivate var columns: [String] = []

    /// The tokenizer: SQLite's `simple` if nil.
    public var tokenizer: FTS3TokenizerDescriptor?

    /// Adds a column (FTS3 columns have no type).
    public func column(_ name: String) {
        columns.append(name)
    }
}

// A mutable class that the body of `create(virtualTable:)` configures on
// the connection's thread: never shared.
@available(*, unavailable)
extension FTS3TableDefinition: Sendable {}
