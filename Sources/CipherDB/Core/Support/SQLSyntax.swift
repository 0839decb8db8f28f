extension String {
    /// The string as an SQL identifier in double quotes, with its own double
    /// quotes doubled: `"my table"`.
    ///
    /// ```swift
    /// try db.execute(sql: "SELECT * FROM \(tableName.quotedDatabaseIdentifier)")
    /// ```
    ///
    /// See <https://www.sqlite.org/lang_keywords.html>.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// As many question marks, separated by commas, as `count`: the parameters
/// of a statement built for a number of values.
///
/// ```swift
/// databaseQuestionMarks(count: 3) // "?,?,?"
/// try db.execute(sql: "INSERT INTO t VALUES (\(databaseQuestionMarks(count: 3)))", arguments: [1, 2, 3])
/// ```
public func databaseQuestionMarks(count: Int) -> String {
    repeatElement("?", count: count).joined(separator: ",")
}
