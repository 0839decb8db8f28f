/// A row adapter presents the rows of a statement with other columns: a
/// subset of them, renamed, and rows nested under names (scopes).
///
/// ```swift
/// // Columns 0 and 1 are a player, columns 2 and 3 its team:
/// let adapter = ScopeAdapter([
///     "player": RangeRowAdapter(0..<2),
///     "team": SuffixRowAdapter(fromIndex: 2)])
/// let row = try Row.fetchOne(db, sql: "SELECT player.*, team.* FROM …", adapter: adapter)!
/// let team: Team = row["team"]
/// ```
///
/// An adapter is resolved once per statement, into the indexes of the
/// columns of the statement that adapted rows read: adapted rows look up
/// nothing by name when they are read.
public protocol RowAdapter: Sendable {
    /// The columns of the adapted rows, as indexes into the columns of
    /// `layout` (the columns of a statement, or of another adapter).
    func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter
}

extension RowAdapter {
    /// The same columns, with scopes added.
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        scopes.isEmpty ? self : ScopeAdapter(base: self, scopes: scopes)
    }
}

/// The adapters that split the columns of a statement into consecutive
/// ranges of the given sizes, and a last adapter for the columns left.
///
/// ```swift
/// // [RangeRowAdapter(0..<2), RangeRowAdapter(2..<5), SuffixRowAdapter(fromIndex: 5)]
/// let adapters = splittingRowAdapters(columnCounts: [2, 3])
/// ```
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    var adapters: [any RowAdapter] = []
    var start = 0
    for count in columnCounts {
        adapters.append(RangeRowAdapter(start..<(start + count)))
        start += count
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}

// MARK: - Resolved adapters

/// An adapter resolved for the columns of a statement: for each column of
/// the adapted rows, its name and the index of the statement column it
/// reads, and the scopes, resolved as well. Built once per statement and
/// shared by the rows of a cursor.
///
/// Immutable, hence `Sendable`.
public final class _LayoutedRowAdapter: Sendable {
    /// For each column of the adapted rows, the index of the base column.
    @usableFromInline let baseIndexes: [Int]
    /// The names of the columns of the adapted rows, and their lookup.
    @usableFromInline let layout: RowLayout
    /// The scopes, with indexes into the same base columns.
    let scopes: [String: _LayoutedRowAdapter]

    init(baseIndexes: [Int], columnNames: [String], scopes: [String: _LayoutedRowAdapter] = [:]) {
        self.baseIndexes = baseIndexes
        self.layout = RowLayout(columnNames: columnNames)
        self.scopes = scopes
    }

    init(baseIndexes: [Int], layout: RowLayout, scopes: [String: _LayoutedRowAdapter]) {
        self.baseIndexes = baseIndexes
        self.layout = layout
        self.scopes = scopes
    }

    /// The columns of a statement, unchanged.
    convenience init(identityOf layout: RowLayout) {
        self.init(baseIndexes: Array(layout.columnNames.indices), layout: layout, scopes: [:])
    }

    /// The same columns, without scopes.
    var unscoped: _LayoutedRowAdapter {
        scopes.isEmpty ? self : _LayoutedRowAdapter(baseIndexes: baseIndexes, layout: layout, scopes: [:])
    }

    /// The columns at `offsets`, with the base indexes of this adapter.
    func columns(at offsets: some Sequence<Int>, renamed names: [String]? = nil) -> _LayoutedRowAdapter {
        let offsets = Array(offsets)
        return _LayoutedRowAdapter(
            baseIndexes: offsets.map { baseIndexes[$0] },
            columnNames: names ?? offsets.map { layout.columnNames[$0] })
    }
}

// MARK: - Adapters

/// No column at all.
public struct EmptyRowAdapter: RowAdapter {
    public init() {}

    public func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter {
        layout.columns(at: [])
    }
}

/// Columns renamed, and only them, in the order of the base columns:
/// `ColumnMapping(["id": "playerId", "name": "playerName"])`.
///
/// Fetching throws a `DatabaseError` if a base column is missing.
public struct ColumnMapping: RowAdapter {
    /// Base column names, by adapted column name.
    let mapping: [String: String]

    public init(_ mapping: [String: String]) {
        self.mapping = mapping
    }

    public func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter {
        let columns = try mapping.map { mappedName, baseName in
            guard let offset = layout.layout.index(ofColumn: baseName) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: """
                    Mapping references missing column \(baseName). \
                    Valid column names are: \(layout.layout.columnNames.joined(separator: ", ")).
                    """)
            }
            return (offset: offset, name: mappedName)
        }
        .sorted { $0.offset < $1.offset }
        return layout.columns(at: columns.map(\.offset), renamed: columns.map(\.name))
    }
}

/// The columns from `index` to the end: `SuffixRowAdapter(fromIndex: 2)`.
public struct SuffixRowAdapter: RowAdapter {
    let index: Int

    public init(fromIndex index: Int) {
        precondition(index >= 0, "Negative column index is out of range")
        self.index = index
    }

    public func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter {
        precondition(index <= layout.baseIndexes.count, "Column index is out of range")
        return layout.columns(at: index..<layout.baseIndexes.count)
    }
}

/// The columns of a range of indexes: `RangeRowAdapter(0..<2)`.
public struct RangeRowAdapter: RowAdapter {
    let range: Range<Int>

    public init(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0, "Negative column index is out of range")
        self.range = range
    }

    public init(_ range: ClosedRange<Int>) {
        self.init(range.lowerBound..<(range.upperBound + 1))
    }

    public func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter {
        precondition(range.upperBound <= layout.baseIndexes.count, "Column index is out of range")
        return layout.columns(at: range)
    }
}

/// The columns of a base adapter (all columns by default), with scopes:
/// rows nested under names, each defined by its own adapter on the same
/// base columns.
///
/// ```swift
/// let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 2)])
/// let teamRow = row.scopes["team"]
/// ```
public struct ScopeAdapter: RowAdapter {
    let base: any RowAdapter
    let scopes: [String: any RowAdapter]

    /// All columns, and scopes.
    public init(_ scopes: [String: any RowAdapter]) {
        self.init(base: SuffixRowAdapter(fromIndex: 0), scopes: scopes)
    }

    /// The columns of `base` (and its scopes), and scopes. A scope of
    /// `scopes` replaces a scope of `base` with the same name.
    public init(base: some RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    public func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter {
        let resolvedBase = try base._layoutedAdapter(from: layout)
        var resolvedScopes = resolvedBase.scopes
        for (name, adapter) in scopes {
            resolvedScopes[name] = try adapter._layoutedAdapter(from: layout)
        }
        return _LayoutedRowAdapter(baseIndexes: resolvedBase.baseIndexes, layout: resolvedBase.layout, scopes: resolvedScopes)
    }
}

/// All columns, renamed: `RenameColumnAdapter { "player_" + $0 }`.
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    public func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter {
        layout.columns(at: layout.baseIndexes.indices, renamed: layout.layout.columnNames.map(transform))
    }
}

/// `second` applied to the columns of `first` (without its scopes), for
/// ``FetchRequest/adapted(_:)`` on a request that has an adapter already.
struct ChainedAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func _layoutedAdapter(from layout: _LayoutedRowAdapter) throws -> _LayoutedRowAdapter {
        try second._layoutedAdapter(from: first._layoutedAdapter(from: layout).unscoped)
    }
}
