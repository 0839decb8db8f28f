/// A tokenizer of FTS3 and FTS4 tables: how their text is split into the
/// tokens that a search matches.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .unicode61(diacritics: .keep)
///     t.column("title")
/// }
/// ```
///
/// See <https://www.sqlite.org/fts3.html#tokenizer>.
public struct FTS3TokenizerDescriptor: Sendable {
    let name: String
    let arguments: [String]

    init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// ASCII letters and digits, folded to lowercase.
    public static let simple = FTS3TokenizerDescriptor("simple")

    /// `simple`, and English words reduced to their stem (the Porter
    /// stemming algorithm): "running" matches "run".
    public static let porter = FTS3TokenizerDescriptor("porter")

    /// Unicode's letters and digits, folded to lowercase; `diacritics`
    /// says what becomes of accents, `separators` and `tokenCharacters`
    /// add characters that separate tokens or belong to them.
    ///
    /// ``FTS3/Diacritics/remove`` needs SQLite 3.27: SQLCipher 3.4.1
    /// refuses the table that asks for it.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []
    ) -> FTS3TokenizerDescriptor {
        var arguments: [String] = []
        switch diacritics {
        case .removeLegacy: break
        case .keep: arguments.append("remove_diacritics=0")
        case .remove: arguments.append("remove_diacritics=2")
        }
        if !separators.isEmpty { arguments.append("separators=" + String(separators.sorted())) }
        if !tokenCharacters.isEmpty { arguments.append("tokenchars=" + String(tokenCharacters.sorted())) }
        return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
    }

    /// `name "argument" …`, as a table's `tokenize=` takes it.
    var sql: String {
        ([name] + quotedArguments).joined(separator: " ")
    }

    /// `name, "argument", …`, as `fts3tokenize(…)` takes it.
    var tokenizeTableArguments: String {
        ([name] + quotedArguments).joined(separator: ", ")
    }

    private var quotedArguments: [String] { arguments.map { "\"\($0)\"" } }
}
