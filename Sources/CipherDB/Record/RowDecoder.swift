import Foundation

// The decoder of `Decodable` records: it reads each property from the row
// column of the same name (or the name given by the column decoding
// strategy), straight from the statement for the common types. Data and
// dates follow the record's strategies for their column; a value that
// decodes a single value (a wrapper, an enum with a raw value) reads it
// from its column; other values (structs, arrays, dictionaries) are
// decoded from JSON. A property that is not a column decodes from the
// scope of its name, from the rows prefetched under its name (`var books:
// [Book]`, see ``PrefetchedRowsDecoder``), or else from the whole row:
// `struct BookInfo: Decodable { var book: Book; … }`.

extension FetchableRecord where Self: Decodable {
    /// Decodes the record from the row with its `Decodable` implementation.
    public init(row: Row) throws {
        try self.init(from: DatabaseRowDecoder<Self>(row: row))
    }
}

/// Decodes `Decodable` records from rows.
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = 42")!
/// let player = try FetchableRecordDecoder().decode(Player.self, from: row)
/// // Same as `try Player(row: row)`
/// ```
public final class FetchableRecordDecoder {
    public init() {}

    /// The record decoded from the row.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        try T(from: DatabaseRowDecoder<T>(row: row))
    }
}

struct DatabaseRowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    /// Empty for a record; for a nested one, the keys that lead to it.
    var codingPath: [any CodingKey] { row.decodingPath.keys }

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let usesDefaultKeys = if case .useDefaultKeys = Record.databaseColumnDecodingStrategy { true } else { false }
        // A new record: none of its properties was decoded from the whole row.
        row.wholeRowPropertyName = nil
        return KeyedDecodingContainer(KeyedContainer(row: row, usesDefaultKeys: usesDefaultKeys))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "unkeyed decoding from a database row is not supported"))
    }

    /// A record that decodes a single value: another record, or the
    /// leftmost column for a lone number or string.
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordValueContainer(row: row)
    }

    /// A record with its own decoding, or a value decoded from the row.
    static func decode<T: Decodable>(_ type: T.Type, from row: Row) throws -> T {
        if let recordType = T.self as? any FetchableRecord.Type {
            return try recordType.init(row: row) as! T
        }
        return try T(from: DatabaseRowDecoder(row: row))
    }

    /// A nested value decoded from `row`, the property `key` of the record
    /// that `parent` decodes: its decoder's coding path ends with `key`.
    static func decode<T: Decodable>(_ type: T.Type, from row: Row, key: some CodingKey, of parent: Row) throws -> T {
        let path = row.decodingPath
        row.decodingPath = CodingKeyChain(parent.decodingPath, key)
        defer { row.decodingPath = path }
        return try decode(T.self, from: row)
    }

    // MARK: - Properties

    /// The properties of a record. It holds only its row and whether
    /// keys are column names: it is copied for each property, and asks
    /// the record type for its strategy only when keys are not.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: Row
        let usesDefaultKeys: Bool

        var codingPath: [any CodingKey] { row.decodingPath.keys }

        var allKeys: [Key] {
            let scopeKeys = row.scopesTree.names.union(row.prefetchedRows.keys).compactMap { Key(stringValue: $0) }
            if usesDefaultKeys {
                return row.columnNames.compactMap { Key(stringValue: $0) } + scopeKeys
            }
            let strategy = Record.databaseColumnDecodingStrategy
            return row.columnNames.compactMap { strategy.key(forColumn: $0) } + scopeKeys
        }

        @inline(__always)
        private func index(for key: Key) -> Int? {
            if usesDefaultKeys { return row.lookUpIndex(ofColumn: key.stringValue) }
            return Record.databaseColumnDecodingStrategy.columnIndex(for: key, in: row)
        }

        @inline(__always)
        private func requiredIndex(for key: Key) throws -> Int {
            guard let index = index(for: key) else {
                throw RowDecodingError.columnNotFound(key.stringValue, RowDecodingContext(column: key.stringValue))
            }
            return index
        }

        func contains(_ key: Key) -> Bool {
            index(for: key) != nil || row.scopesTree[key.stringValue] != nil
                || row.prefetchedRows[key.stringValue] != nil
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if let index = index(for: key) {
                return row.isNull(atUncheckedIndex: index)
            }
            // A scope of NULLs is a missing associated record.
            if let scopedRow = row.scopesTree[key.stringValue] {
                return !scopedRow.containsNonNullValue
            }
            // Prefetched rows are a collection, maybe empty, never nil.
            return row.prefetchedRows[key.stringValue] == nil
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try row.decode(atIndex: requiredIndex(for: key)) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try row.decode(atIndex: requiredIndex(for: key)) }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(key) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(key) }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(key) }

        /// An optional through the fast path: one lookup, one column read.
        private func optional<T: DatabaseValueConvertible & StatementColumnConvertible>(_ key: Key) throws -> T? {
            guard let index = index(for: key) else { return nil }
            return try row.decodeIfPresent(T.self, atIndex: index)
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if let index = index(for: key) {
                return try ColumnDecoder<Record>.decode(T.self, row: row, index: index, key: key)
            }
            // An associated record.
            if let scopedRow = row.scopesTree[key.stringValue] {
                return try DatabaseRowDecoder.decode(T.self, from: scopedRow, key: key, of: row)
            }
            // Associated records, prefetched.
            if let rows = row.prefetchedRows[key.stringValue] {
                return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: CodingKeyChain(row.decodingPath, key).keys))
            }
            // A record made of columns of the row, such as `book` in
            // `struct BookInfo { var book: Book; var author: Author }` or
            // `struct TeamInfo { var team: Team; var playerCount: Int }`.
            // A missing database value is a missing column.
            if T.self is any DatabaseValueConvertible.Type {
                throw RowDecodingError.columnNotFound(key.stringValue, RowDecodingContext(column: key.stringValue))
            }
            // Only one such property: a second one missing from the row is
            // an error, not a second copy of the base record.
            if let decodedName = row.wholeRowPropertyName, decodedName != key.stringValue {
                throw DecodingError.keyNotFound(key, DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "No such key: \([decodedName, key.stringValue].sorted().joined(separator: " or "))"))
            }
            let value = try DatabaseRowDecoder.decode(T.self, from: row, key: key, of: row)
            // After the nested record, which began its own count.
            row.wholeRowPropertyName = key.stringValue
            return value
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            if let index = index(for: key) {
                if row.isNull(atUncheckedIndex: index) { return nil }
                return try ColumnDecoder<Record>.decode(T.self, row: row, index: index, key: key)
            }
            // A scope of NULLs is a missing associated record (a left join).
            if let scopedRow = row.scopesTree[key.stringValue] {
                guard scopedRow.containsNonNullValue else { return nil }
                return try DatabaseRowDecoder.decode(T.self, from: scopedRow, key: key, of: row)
            }
            if let rows = row.prefetchedRows[key.stringValue] {
                return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: CodingKeyChain(row.decodingPath, key).keys))
            }
            return nil
        }


        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                KeyedDecodingContainer<NestedKey>.self,
                DecodingError.Context(codingPath: codingPath + [key],
                                      debugDescription: "nested containers are not supported: store nested values as JSON"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                (any UnkeyedDecodingContainer).self,
                DecodingError.Context(codingPath: codingPath + [key],
                                      debugDescription: "unkeyed decoding is not supported"))
        }

        func superDecoder() throws -> any Decoder { DatabaseRowDecoder(row: row) }
        func superDecoder(forKey key: Key) throws -> any Decoder { DatabaseRowDecoder(row: row) }
    }

    // MARK: - Single value

    /// The single value of a record: a record or value decoded from the
    /// row, or the leftmost column for a lone number or string.
    struct RecordValueContainer: SingleValueDecodingContainer {
        let row: Row
        var codingPath: [any CodingKey] { row.decodingPath.keys }

        private var leftmostColumn: ColumnDecoder<Record> {
            ColumnDecoder(row: row, index: 0, codingPath: codingPath)
        }

        func decodeNil() -> Bool { row.count == 0 || leftmostColumn.decodeNil() }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try DatabaseRowDecoder.decode(T.self, from: row)
        }

        func decode(_ type: Bool.Type) throws -> Bool { try leftmostColumn.decode(type) }
        func decode(_ type: String.Type) throws -> String { try leftmostColumn.decode(type) }
        func decode(_ type: Double.Type) throws -> Double { try leftmostColumn.decode(type) }
        func decode(_ type: Float.Type) throws -> Float { try leftmostColumn.decode(type) }
        func decode(_ type: Int.Type) throws -> Int { try leftmostColumn.decode(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try leftmostColumn.decode(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try leftmostColumn.decode(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try leftmostColumn.decode(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try leftmostColumn.decode(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try leftmostColumn.decode(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try leftmostColumn.decode(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try leftmostColumn.decode(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try leftmostColumn.decode(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try leftmostColumn.decode(type) }
    }
}

/// The keys that lead from a record to a nested one, as a chain, kept by
/// the row that the nested record decodes from: the decoders of a record
/// itself, whose path is empty (nil), hold and copy nothing more.
final class CodingKeyChain {
    let parent: CodingKeyChain?
    let key: any CodingKey

    init(_ parent: CodingKeyChain?, _ key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    var keys: [any CodingKey] { parent.keys + [key] }
}

extension CodingKeyChain? {
    /// The coding path: empty for nil.
    var keys: [any CodingKey] { self?.keys ?? [] }
}
