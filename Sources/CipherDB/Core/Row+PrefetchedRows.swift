// The rows of to-many associations, prefetched by a second query per
// association (``JoinableRequest/including(all:)``), and the records decoded
// from them.
//
// ```swift
// let request = Author.including(all: Author.books)
// let row = try Row.fetchOne(db, request)!
// row.prefetchedRows["books"]   // [Row]
// let books: [Book] = row["books"]
// ```

extension Row {
    /// The prefetched rows of a row, by association key.
    ///
    /// Keys are found at any depth, the shallowest first: the rows of
    /// `Book.including(required: Book.author.including(all: Author.awards))`
    /// have the key `awards`, which is also the one of the scope `author`.
    public struct PrefetchedRowsView: Equatable {
        /// One association key, in the order of the request.
        struct Entry: Equatable {
            var key: String
            /// Nil for an association that only leads to prefetched ones:
            /// the pivot of `hasMany(_:through:using:)`, or a to-one
            /// association that includes a to-many one.
            var rows: [Row]?
            var nested: PrefetchedRowsView
        }

        private var entries: [Entry] = []

        /// Whether no association was prefetched.
        public var isEmpty: Bool {
            entries.isEmpty
        }

        /// The keys of the prefetched associations, at any depth.
        public var keys: Set<String> {
            var keys: Set<String> = []
            for entry in breadthFirstEntries where entry.rows != nil {
                keys.insert(entry.key)
            }
            return keys
        }

        /// The rows prefetched for an association key (the shallowest one),
        /// or nil if the request did not prefetch it.
        public subscript(_ key: String) -> [Row]? {
            breadthFirstEntries.first { $0.key == key && $0.rows != nil }?.rows
        }

        /// The prefetched rows of the scope `key`.
        func nested(forKey key: String) -> PrefetchedRowsView? {
            entries.first { $0.key == key }?.nested
        }

        /// Sets the rows of the association at the end of `keyPath`.
        mutating func setRows(_ rows: [Row], forKeyPath keyPath: some Collection<String>) {
            guard let key = keyPath.first else { return }
            let index = entries.firstIndex { $0.key == key } ?? {
                entries.append(Entry(key: key, rows: nil, nested: PrefetchedRowsView()))
                return entries.count - 1
            }()
            if keyPath.count == 1 {
                entries[index].rows = rows
            } else {
                entries[index].nested.setRows(rows, forKeyPath: keyPath.dropFirst())
            }
        }

        private var breadthFirstEntries: [Entry] {
            var queue = entries
            var position = 0
            while position < queue.count {
                queue.append(contentsOf: queue[position].nested.entries)
                position += 1
            }
            return queue
        }
    }
}

// MARK: - Records from prefetched rows

extension Row {
    /// The records decoded from the rows prefetched for an association
    /// key, or a ``RowDecodingError`` if the request did not prefetch it.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Author.including(all: Author.books))!
    /// let books: [Book] = try row.decode(forKey: "books")
    /// ```
    public func decode<Records: RangeReplaceableCollection>(
        _ type: Records.Type = Records.self, forKey key: String) throws -> Records
        where Records.Element: FetchableRecord
    {
        let rows = try requiredPrefetchedRows(forKey: key)
        var records = Records()
        records.reserveCapacity(rows.count)
        for row in rows {
            try records.append(Records.Element(row: row))
        }
        return records
    }

    /// The set of the records decoded from the rows prefetched for an
    /// association key, or a ``RowDecodingError`` if the request did not
    /// prefetch it.
    public func decode<Record: FetchableRecord & Hashable>(
        _ type: Set<Record>.Type = Set<Record>.self, forKey key: String) throws -> Set<Record>
    {
        let rows = try requiredPrefetchedRows(forKey: key)
        var records = Set<Record>(minimumCapacity: rows.count)
        for row in rows {
            try records.insert(Record(row: row))
        }
        return records
    }

    /// The records of the rows prefetched for an association key. Stops
    /// the program if the request did not prefetch it.
    public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records
        where Records.Element: FetchableRecord
    {
        Row.orDie { try decode(Records.self, forKey: key) }
    }

    /// The set of the records of the rows prefetched for an association
    /// key. Stops the program if the request did not prefetch it.
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        Row.orDie { try decode(Set<Record>.self, forKey: key) }
    }

    private func requiredPrefetchedRows(forKey key: String) throws -> [Row] {
        if let rows = prefetchedRows[key] { return rows }
        let keys = prefetchedRows.keys.sorted()
        let available = keys.isEmpty ? "" : " - available keys: \(keys)"
        throw RowDecodingError(description: "key for prefetched rows not found: \(String(reflecting: key))\(available)")
    }
}
