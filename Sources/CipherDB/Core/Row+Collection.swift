import CSQLCipher
import Foundation

// MARK: - Collection

/// A row is the collection of its (column name, value) pairs, left to
/// right.
///
/// ```swift
/// for (column, dbValue) in row { print("\(column): \(dbValue)") }
/// ```
extension Row: RandomAccessCollection {
    /// The position of a column in a row.
    public struct Index: Comparable, Strideable, Sendable {
        let index: Int

        init(_ index: Int) {
            self.index = index
        }

        public static func < (lhs: Index, rhs: Index) -> Bool {
            lhs.index < rhs.index
        }

        public func distance(to other: Index) -> Int {
            other.index - index
        }

        public func advanced(by offset: Int) -> Index {
            Index(index + offset)
        }
    }

    public var startIndex: Index { Index(0) }
    public var endIndex: Index { Index(count) }

    public subscript(position: Index) -> (String, DatabaseValue) {
        checkIndex(position.index)
        return (layout.columnNames[position.index], databaseValue(atUncheckedIndex: position.index))
    }
}

@available(*, deprecated, renamed: "Row.Index")
public typealias RowIndex = Row.Index

// MARK: - Data without copy, coalesce

extension Row {
    /// Calls `body` with the data of the value at `index`, without copying
    /// it when the row is a cursor row (the data is valid only inside
    /// `body`): nil for NULL, the UTF-8 bytes of text.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        checkIndex(index)
        return try withUnsafeData(atUncheckedIndex: index, body)
    }

    /// Calls `body` with the data of the named column: nil for NULL or a
    /// missing column.
    public func withUnsafeData<T>(named columnName: String, _ body: (Data?) throws -> T) throws -> T {
        guard let index = lookUpIndex(ofColumn: columnName) else { return try body(nil) }
        return try withUnsafeData(atUncheckedIndex: index, body)
    }

    /// Calls `body` with the data of a column: nil for NULL or a missing
    /// column.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        try withUnsafeData(named: column.name, body)
    }

    private func withUnsafeData<T>(atUncheckedIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        switch impl {
        case .statement(let statement):
            let sqliteStatement = statement.sqliteStatement
            guard sqlite3_column_type(sqliteStatement, CInt(index)) != SQLITE_NULL else { return try body(nil) }
            guard let bytes = sqlite3_column_blob(sqliteStatement, CInt(index)) else { return try body(Data()) }
            let count = Int(sqlite3_column_bytes(sqliteStatement, CInt(index)))
            return try body(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: bytes), count: count, deallocator: .none))
        case .values(let values):
            return try body(Data?.decode(values[index], context: context(index)))
        case let .adapted(base, adapter):
            return try base.withUnsafeData(atUncheckedIndex: adapter.baseIndexes[index], body)
        }
    }

    /// The first non-NULL value of the named columns, or nil.
    ///
    /// ```swift
    /// let name: String? = row.coalesce(["nickname", "name"])
    /// ```
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<String>) -> T? {
        for column in columns {
            if let value = self[column] as T? { return value }
        }
        return nil
    }

    /// The first non-NULL value of the columns, or nil.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<any ColumnExpression>) -> T? {
        coalesce(columns.lazy.map(\.name))
    }
}

// MARK: - Equality, description

extension Row: Equatable, Hashable {
    /// Rows are equal when they have the same columns and values, in the
    /// same order, equal scopes and equal prefetched rows.
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.columnNames == rhs.columnNames, lhs.databaseValues == rhs.databaseValues else { return false }
        let scopeNames = Set(lhs.scopes.names)
        guard scopeNames == Set(rhs.scopes.names) else { return false }
        return scopeNames.allSatisfy { lhs.scopes[$0] == rhs.scopes[$0] }
            && lhs.prefetchedRows == rhs.prefetchedRows
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for (column, dbValue) in self {
            hasher.combine(column)
            hasher.combine(dbValue)
        }
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// Creates a row with columns in the order of the literal:
    /// `let row: Row = ["id": 1, "name": "Arthur"]`.
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(values: ContiguousArray(elements.map { $0.1?.databaseValue ?? .null }),
                  layout: RowLayout(columnNames: elements.map(\.0)))
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// `[id:1 name:'Arthur']`. This shows the values: use it only where
    /// they may be seen.
    public var description: String {
        "[" + map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }

    /// The description, and for an adapted row its unadapted row, its
    /// scopes (`- name: …`) and the number of its prefetched rows
    /// (`+ key: 2 rows`), one a line.
    public var debugDescription: String {
        debugDescription(level: 0)
    }

    private func debugDescription(level: Int) -> String {
        let unadapted = self.unadapted
        if level == 0 && self == unadapted && prefetchedRows.isEmpty { return description }
        let indentation = String(repeating: "  ", count: level + 1)
        var lines = [level == 0 ? "▿ " + description : description]
        if level == 0 && self != unadapted {
            lines.append(indentation + "unadapted: " + unadapted.description)
        }
        for (name, row) in scopes.sorted(by: { $0.name < $1.name }) {
            lines.append(indentation + "- " + name + ": " + row.debugDescription(level: level + 1))
        }
        for key in prefetchedRows.keys.sorted() {
            guard let count = prefetchedRows[key]?.count else { continue }
            lines.append(indentation + "+ " + key + ": \(count) " + (count > 1 ? "rows" : "row"))
        }
        return lines.joined(separator: "\n")
    }
}
