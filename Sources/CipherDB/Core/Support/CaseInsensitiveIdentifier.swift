/// A table or column name that keeps its spelling, and compares and
/// hashes without case, as SQLite compares names (ASCII letters only).
///
/// ```swift
/// CaseInsensitiveIdentifier("Player") == CaseInsensitiveIdentifier("player") // true
/// CaseInsensitiveIdentifier("Player").rawValue                             // "Player"
/// ```
///
/// Neither comparing nor hashing allocates: regions look up the table of
/// every change event.
struct CaseInsensitiveIdentifier: Hashable, Sendable {
    let rawValue: String

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue.isEqualIgnoringCase(rhs.rawValue)
    }

    func hash(into hasher: inout Hasher) {
        for byte in rawValue.utf8 {
            hasher.combine(String.asciiLowercase(byte))
        }
        // Ends the name, as String's own hashing does, so that adjacent
        // names in one hasher cannot run together.
        hasher.combine(0xFF as UInt8)
    }
}
