import Foundation

/// Decodes a property of a record from one column: database values
/// directly, data and dates with the record's strategies for the column, a
/// value that decodes a single value (a wrapper, an enum with a raw value)
/// from the column's value, and other values from JSON text.
struct ColumnDecoder<Record: FetchableRecord>: Decoder, SingleValueDecodingContainer {
    let row: Row
    let index: Int
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    private var column: String { row.columnNames[index] }

    /// The value of the property `key`, in the column at `index`.
    static func decode<T: Decodable>(_ type: T.Type, row: Row, index: Int, key: some CodingKey) throws -> T {
        // The common types first, with no coding path to build.
        if let value = try decodeDatabaseValue(T.self, row: row, index: index) {
            return value
        }
        do {
            return try T(from: ColumnDecoder(row: row, index: index, codingPath: CodingKeyChain(row.decodingPath, key).keys))
        } catch is JSONRequiredError {
            return try decodeJSON(T.self, row: row, index: index, key: key)
        }
    }

    /// Data, dates, and database values, or nil for other types.
    @inline(__always)
    private static func decodeDatabaseValue<T>(_ type: T.Type, row: Row, index: Int) throws -> T? {
        // Comparing types is cheap; a failed dynamic cast is not.
        if T.self == Date.self {
            let column = row.columnNames[index]
            return try decodeDate(row: row, index: index, strategy: Record.databaseDateDecodingStrategy(for: column)) as? T
        }
        if T.self == Data.self {
            let column = row.columnNames[index]
            return try decodeData(row: row, index: index, strategy: Record.databaseDataDecodingStrategy(for: column)) as? T
        }
        // UUIDs and the other standard types read the column in place.
        if let convertible = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            return try decodeFast(convertible, row: row, index: index) as? T
        }
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            return try row.decode(convertible, atIndex: index) as? T
        }
        return nil
    }

    private static func decodeFast<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, row: Row, index: Int) throws -> Value
    {
        try row.decode(Value.self, atIndex: index)
    }

    private static func decodeDate(row: Row, index: Int, strategy: DatabaseDateDecodingStrategy) throws -> Date {
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        guard !dbValue.isNull, let date = strategy.decode(dbValue) else {
            throw RowDecodingError.valueMismatch(Date.self, dbValue, row.context(index))
        }
        return date
    }

    private static func decodeData(row: Row, index: Int, strategy: DatabaseDataDecodingStrategy) throws -> Data {
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        guard !dbValue.isNull, let data = strategy.decode(dbValue) else {
            throw RowDecodingError.valueMismatch(Data.self, dbValue, row.context(index))
        }
        return data
    }

    /// A struct, an array or a dictionary, stored as JSON text (or blob).
    private static func decodeJSON<T: Decodable>(_ type: T.Type, row: Row, index: Int, key: some CodingKey) throws -> T {
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        case .null:
            throw DecodingError.valueNotFound(Data.self, DecodingError.Context(
                codingPath: CodingKeyChain(row.decodingPath, key).keys, debugDescription: "Missing Data"))
        case .int64, .double:
            throw RowDecodingError.valueMismatch(T.self, dbValue, row.context(index))
        }
        return try Record.databaseJSONDecoder(for: key.stringValue).decode(T.self, from: data)
    }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw JSONRequiredError()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONRequiredError()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - SingleValueDecodingContainer

    func decodeNil() -> Bool {
        row.isNull(atUncheckedIndex: index)
    }

    /// A wrapped value: a date in a wrapper still follows the date strategy.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let value = try Self.decodeDatabaseValue(T.self, row: row, index: index) {
            return value
        }
        return try T(from: self)
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
