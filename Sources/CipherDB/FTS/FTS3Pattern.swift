/// A full-text search pattern of FTS3 and FTS4 tables, checked by SQLite
/// when it is made: a pattern that SQLite refuses throws here, not in the
/// request that uses it.
///
/// ```swift
/// let pattern = try FTS3Pattern(rawPattern: "moby NOT dick")
/// let books = try Book.matching(pattern).fetchAll(db)
///
/// // From what a user typed: nil when it has no token.
/// let search = FTS3Pattern(matchingAllPrefixesIn: "mob dic")  // mob* dic*
/// ```
///
/// See <https://www.sqlite.org/fts3.html#full_text_index_queries>.
public struct FTS3Pattern: Sendable {
    /// The pattern as SQLite reads it.
    public let rawPattern: String

    /// A pattern in SQLite's full-text query syntax; throws the
    /// `DatabaseError` of SQLite, without the SQL that checked it, for a
    /// pattern it refuses (`"NOT"`, an unclosed quote).
    public init(rawPattern: String) throws {
        // SQLite reports an invalid pattern at the first step of a
        // statement that matches it: one runs on an empty table of an
        // in-memory database of its own.
        do {
            try DatabaseQueue().inDatabase { (db) throws in
                try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts3()")
                try db.execute(sql: "SELECT * FROM documents WHERE content MATCH ?", arguments: [rawPattern])
            }
        } catch let error as DatabaseError {
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
        self.rawPattern = rawPattern
    }

    /// Matches the rows that contain any token of `string`
    /// (`moby OR dick`); nil if `string` has no token.
    public init?(matchingAnyTokenIn string: String) {
        self.init(tokensOf: string) { $0.joined(separator: " OR ") }
    }

    /// Matches the rows that contain every token of `string`
    /// (`moby dick`); nil if `string` has no token.
    public init?(matchingAllTokensIn string: String) {
        self.init(tokensOf: string) { $0.joined(separator: " ") }
    }

    /// Matches the rows that contain a word that starts with each token of
    /// `string` (`mob* dic*`); nil if `string` has no token.
    public init?(matchingAllPrefixesIn string: String) {
        self.init(tokensOf: string) { $0.map { "\($0)*" }.joined(separator: " ") }
    }

    /// Matches the rows that contain the tokens of `string` in a row
    /// (`"moby dick"`); nil if `string` has no token.
    public init?(matchingPhrase string: String) {
        self.init(tokensOf: string) { "\"" + $0.joined(separator: " ") + "\"" }
    }

    /// The pattern that `pattern` writes from the tokens of `string` (the
    /// `simple` tokenizer's: letters and digits only, so the pattern is
    /// always valid), or nil for no token.
    private init?(tokensOf string: String, _ pattern: ([String]) -> String) {
        guard let tokens = try? FTS3.tokenize(string), !tokens.isEmpty,
              let valid = try? FTS3Pattern(rawPattern: pattern(tokens)) else { return nil }
        self = valid
    }
}

extension FTS3Pattern: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// A valid pattern from a string, nil for any other value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS3Pattern(rawPattern: $0) }
    }
}
