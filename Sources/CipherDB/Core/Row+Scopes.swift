// The scopes of a row: rows nested under names by a ``ScopeAdapter``, such
// as the columns of an associated record.
//
// ```swift
// let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 3)])
// let row = try Row.fetchOne(db, sql: "SELECT player.*, team.* FROM …", adapter: adapter)!
// let teamRow = row.scopes["team"]   // Row?
// let team: Team = row["team"]       // decoded from the scope
// ```

extension Row {
    /// The scopes of the row, by name.
    public var scopes: ScopesView {
        guard case let .adapted(base, adapter) = impl else { return ScopesView() }
        return ScopesView(base: base, adapters: adapter.scopes, prefetchedRows: prefetchedRows)
    }

    /// The scopes of the row and of its scopes, found by name at any depth
    /// (the shallowest first).
    public var scopesTree: ScopesTreeView {
        ScopesTreeView(scopes: scopes)
    }

    /// Whether the row has scopes.
    var hasScopes: Bool {
        guard case let .adapted(_, adapter) = impl else { return false }
        return !adapter.scopes.isEmpty
    }

    /// The row without its scopes, and without prefetched rows.
    public var unscoped: Row {
        guard case let .adapted(base, adapter) = impl else {
            return prefetchedRows.isEmpty ? self : Row(values: databaseValues, layout: layout)
        }
        if adapter.scopes.isEmpty && prefetchedRows.isEmpty { return self }
        return Row(base: base, adapter: adapter.unscoped)
    }

    /// The row before any adapter: all the columns of the statement.
    public var unadapted: Row {
        guard case let .adapted(base, _) = impl else { return self }
        return base.unadapted
    }

    /// The scopes of a row.
    public struct ScopesView {
        private let base: Row
        private let adapters: [String: _LayoutedRowAdapter]
        /// The prefetched rows of the scoped row, some of which belong to
        /// its scopes.
        private let prefetchedRows: PrefetchedRowsView

        init() {
            self.init(base: Row(), adapters: [:], prefetchedRows: PrefetchedRowsView())
        }

        init(base: Row, adapters: [String: _LayoutedRowAdapter], prefetchedRows: PrefetchedRowsView) {
            self.base = base
            self.adapters = adapters
            self.prefetchedRows = prefetchedRows
        }

        /// The names of the scopes.
        public var names: Dictionary<String, _LayoutedRowAdapter>.Keys {
            adapters.keys
        }

        /// The row of a scope, if any.
        public subscript(_ name: String) -> Row? {
            adapters[name].map { scopedRow(name, adapter: $0) }
        }

        /// The row of a scope, with the rows prefetched for it:
        /// `A.including(required: A.b.including(all: B.cs))` prefetches
        /// `cs` for the scope `b`.
        fileprivate func scopedRow(_ name: String, adapter: _LayoutedRowAdapter) -> Row {
            let row = Row(base: base, adapter: adapter)
            if let prefetchedRows = prefetchedRows.nested(forKey: name) {
                row.prefetchedRows = prefetchedRows
            }
            return row
        }
    }

    /// The scopes of a row and of its scopes.
    public struct ScopesTreeView {
        let scopes: ScopesView

        /// The names of all scopes, at any depth.
        public var names: Set<String> {
            var names: Set<String> = []
            for (name, row) in scopes {
                names.insert(name)
                names.formUnion(row.scopesTree.names)
            }
            return names
        }

        /// The row of the shallowest scope with that name, if any.
        public subscript(_ name: String) -> Row? {
            var queue = Array(scopes)
            var position = 0
            while position < queue.count {
                let scope = queue[position]
                if scope.name == name { return scope.row }
                queue.append(contentsOf: scope.row.scopes)
                position += 1
            }
            return nil
        }
    }
}

extension Row.ScopesView: Collection {
    public typealias Index = Dictionary<String, _LayoutedRowAdapter>.Index

    public var startIndex: Index { adapters.startIndex }
    public var endIndex: Index { adapters.endIndex }

    public func index(after index: Index) -> Index {
        adapters.index(after: index)
    }

    public subscript(position: Index) -> (name: String, row: Row) {
        let (name, adapter) = adapters[position]
        return (name: name, row: scopedRow(name, adapter: adapter))
    }
}

// MARK: - Records from scopes

extension Row {
    /// The record decoded from a scope (at any depth), or nil when the
    /// scope is missing or only holds NULL (no associated record).
    public func decodeIfPresent<Record: FetchableRecord>(
        _ type: Record.Type = Record.self, forKey scope: String) throws -> Record?
    {
        guard let scopedRow = scopesTree[scope], scopedRow.containsNonNullValue else { return nil }
        return try Record(row: scopedRow)
    }

    /// The record decoded from a scope (at any depth), or a
    /// ``RowDecodingError`` when the scope is missing or only holds NULL.
    public func decode<Record: FetchableRecord>(
        _ type: Record.Type = Record.self, forKey scope: String) throws -> Record
    {
        guard let scopedRow = scopesTree[scope] else {
            let names = scopesTree.names.sorted()
            let available = names.isEmpty ? "" : " - available scopes: \(names)"
            throw RowDecodingError(description: "scope not found: \(String(reflecting: scope))\(available)")
        }
        guard scopedRow.containsNonNullValue else {
            throw RowDecodingError(description: "could not decode \(Record.self): scope \(String(reflecting: scope)) only contains null values")
        }
        return try Record(row: scopedRow)
    }

    /// The record of a scope. Stops the program if the scope is missing
    /// or only holds NULL.
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
        Row.orDie { try decode(Record.self, forKey: scope) }
    }

    /// The record of a scope, or nil when the scope is missing or only
    /// holds NULL.
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
        Row.orDie { try decodeIfPresent(Record.self, forKey: scope) }
    }
}
