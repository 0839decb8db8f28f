/// The column names of rows, and the case-insensitive lookup of their
/// indexes, computed once per statement and shared by its rows.
@usableFromInline
final class RowLayout: Sendable {
    let columnNames: [String]
    /// Exact names first: a lookup with the right case allocates nothing.
    private let exactIndexes: [String: Int]
    private let lowercasedIndexes: [String: Int]

    init(columnNames: [String]) {
        self.columnNames = columnNames
        var exactIndexes: [String: Int] = [:]
        var lowercasedIndexes: [String: Int] = [:]
        // The leftmost column wins, as in SQLite.
        for (index, name) in columnNames.enumerated().reversed() {
            lowercasedIndexes[name.lowercased()] = index
        }
        for (index, name) in columnNames.enumerated() where lowercasedIndexes[name.lowercased()] == index {
            exactIndexes[name] = index
        }
        self.exactIndexes = exactIndexes
        self.lowercasedIndexes = lowercasedIndexes
    }

    @usableFromInline
    func index(ofColumn name: String) -> Int? {
        exactIndexes[name] ?? lowercasedIndexes[name.lowercased()]
    }
}
