import Foundation

// The decoder of `Decodable` records: it reads each property from the row
// column of the same name (or the name given by the column decoding
// strategy), straight from the statement for the common types.

extension FetchableRecord where Self: Decodable {
    /// Decodes the record from the row with its `Decodable` implementation.
    public init(row: Row) throws {
        try self.init(from: DatabaseRowDecoder<Self>(row: row))
    }
}

struct DatabaseRowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    /// A record is the root of its decoding: its properties are columns.
    var codingPath: [any CodingKey] { [] }

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let usesDefaultKeys = if case .useDefaultKeys = Record.databaseColumnDecodingStrategy { true } else { false }
        // Only a row with scopes (the row of a request that includes
        // associations) can decode a record property from the base row:
        // other rows pay no allocation for it.
        let baseRowKey = row.hasScopes ? BaseRowKey() : nil
        return KeyedDecodingContainer(KeyedContainer(row: row, usesDefaultKeys: usesDefaultKeys, baseRowKey: baseRowKey))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "a database row is not an array"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        // A record made of a single value reads the leftmost column.
        guard row.count > 0 else {
            throw DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "the row has no column"))
        }
        return ColumnDecodingContainer<Record>(row: row, index: 0, codingPath: codingPath)
    }

    /// The properties of a record. It holds only its row and whether
    /// keys are column names: it is copied for each property, and asks
    /// the record type for its strategy only when keys are not.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: Row
        let usesDefaultKeys: Bool
        /// The one property decoded from the base row, for a row with scopes.
        let baseRowKey: BaseRowKey?

        var codingPath: [any CodingKey] { [] }
        var decoder: DatabaseRowDecoder { DatabaseRowDecoder(row: row) }

        var allKeys: [Key] {
            row.columnNames.compactMap { Key(stringValue: $0) }
        }

        @inline(__always)
        private func index(for key: Key) -> Int? {
            if usesDefaultKeys { return row.lookUpIndex(ofColumn: key.stringValue) }
            return Record.databaseColumnDecodingStrategy.columnIndex(for: key, in: row)
        }

        @inline(__always)
        private func requiredIndex(for key: Key) throws -> Int {
            guard let index = index(for: key) else { throw keyNotFound(key) }
            return index
        }

        private func keyNotFound(_ key: Key) -> DecodingError {
            DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "no column for key \(String(reflecting: key.stringValue)) in the row"))
        }

        func contains(_ key: Key) -> Bool {
            index(for: key) != nil || row.scopesTree[key.stringValue] != nil
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let index = index(for: key) else { return true }
            return row.isNull(atUncheckedIndex: index)
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
                return try ColumnDecodingContainer<Record>(row: row, index: index, codingPath: codingPath + [key])
                    .decode(T.self)
            }
            // A property without a column is a record nested in a scope
            // (an associated record), as in GRDB.
            if let scopedRow = row.scopesTree[key.stringValue] {
                return try T(from: DatabaseRowDecoder<Record>(row: scopedRow))
            }
            // Or the record of the request itself, whose row has the scopes:
            // `struct BookInfo { var book: Book; var author: Author }` from
            // `Book.including(required: Book.author)`. One property only.
            if let baseRowKey {
                if let decodedKey = baseRowKey.name, decodedKey != key.stringValue {
                    throw DecodingError.keyNotFound(key, DecodingError.Context(
                        codingPath: codingPath,
                        debugDescription: "No such key: \([decodedKey, key.stringValue].sorted().joined(separator: " or "))"))
                }
                baseRowKey.name = key.stringValue
                return try T(from: DatabaseRowDecoder<Record>(row: row))
            }
            throw keyNotFound(key)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let index = index(for: key) else {
                // A scope of NULLs is a missing associated record.
                guard let scopedRow = row.scopesTree[key.stringValue], scopedRow.containsNonNullValue else { return nil }
                return try T(from: DatabaseRowDecoder<Record>(row: scopedRow))
            }
            guard !row.isNull(atUncheckedIndex: index) else { return nil }
            return try ColumnDecodingContainer<Record>(row: row, index: index, codingPath: codingPath + [key]).decode(T.self)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                DecodingError.Context(codingPath: codingPath + [key],
                                      debugDescription: "nested containers are not supported: store nested values as JSON"))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self,
                DecodingError.Context(codingPath: codingPath + [key],
                                      debugDescription: "nested containers are not supported: store nested values as JSON"))
        }

        func superDecoder() throws -> any Decoder { decoder }
        func superDecoder(forKey key: Key) throws -> any Decoder { decoder }
    }
}

/// The key of the property decoded from the base row of a row with scopes.
final class BaseRowKey {
    var name: String?
}

/// Decodes one column: database values directly, dates with the record's
/// strategy, other `Decodable` values from JSON text.
struct ColumnDecodingContainer<Record: FetchableRecord>: SingleValueDecodingContainer {
    let row: Row
    let index: Int
    let codingPath: [any CodingKey]

    var column: String { row.columnNames[index] }

    func decodeNil() -> Bool {
        row.isNull(atUncheckedIndex: index)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            let dbValue = row.databaseValue(atUncheckedIndex: index)
            guard let date = Record.databaseDateDecodingStrategy.decode(dbValue) else {
                throw RowDecodingError.valueMismatch(Date.self, dbValue, RowDecodingContext(column: column))
            }
            return date as! T
        }
        // UUIDs and the other standard types read the column in place.
        if let convertible = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            return try Self.decode(convertible, from: row, atIndex: index) as! T
        }
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            return try convertible.decode(dbValue, context: RowDecodingContext(column: column)) as! T
        }
        // Nested values and arrays are stored as JSON.
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default:
            throw RowDecodingError.valueMismatch(T.self, dbValue, RowDecodingContext(column: column))
        }
        let decoder = Record.databaseJSONDecoder(for: column)
        decoder.userInfo = Record.databaseDecodingUserInfo
        return try decoder.decode(T.self, from: data)
    }

    private static func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, from row: Row, atIndex index: Int) throws -> Value
    {
        try row.decode(Value.self, atIndex: index)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try row.decode(atIndex: index) }
    func decode(_ type: String.Type) throws -> String { try row.decode(atIndex: index) }
    func decode(_ type: Double.Type) throws -> Double { try row.decode(atIndex: index) }
    func decode(_ type: Float.Type) throws -> Float { try row.decode(atIndex: index) }
    func decode(_ type: Int.Type) throws -> Int { try row.decode(atIndex: index) }
    func decode(_ type: Int8.Type) throws -> Int8 { try row.decode(atIndex: index) }
    func decode(_ type: Int16.Type) throws -> Int16 { try row.decode(atIndex: index) }
    func decode(_ type: Int32.Type) throws -> Int32 { try row.decode(atIndex: index) }
    func decode(_ type: Int64.Type) throws -> Int64 { try row.decode(atIndex: index) }
    func decode(_ type: UInt.Type) throws -> UInt { try row.decode(atIndex: index) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try row.decode(atIndex: index) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try row.decode(atIndex: index) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try row.decode(atIndex: index) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try row.decode(atIndex: index) }
}
