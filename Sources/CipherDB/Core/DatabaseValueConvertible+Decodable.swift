import Foundation

// `Decodable` types get their conversion from database values from their
// `Decodable` implementation: a type that decodes a single value (a
// wrapper, an enum with a raw value) reads it from the database value, and
// other types (structs, arrays, dictionaries) decode JSON text or blobs.

extension DatabaseValueConvertible where Self: Decodable {
    /// The value that the `Decodable` implementation decodes from the
    /// database value, or from its JSON; nil if decoding fails.
    ///
    /// ```swift
    /// struct Address: Codable, DatabaseValueConvertible { … }
    /// let address = try Address.fetchOne(db, sql: "SELECT address FROM place")
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        do {
            return try Self(from: DatabaseValueDecoder(dbValue: dbValue))
        } catch is JSONRequiredError {
            guard let data = Data.fromDatabaseValue(dbValue) else { return nil }
            return try? databaseJSONDecoder().decode(Self.self, from: data)
        } catch {
            return nil
        }
    }
}

extension DatabaseValueConvertible where Self: Decodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The value of the raw value, not of the `Decodable` implementation.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { self.init(rawValue: $0) }
    }
}

/// Decodes a value from one database value; a value that asks for a keyed
/// or unkeyed container throws ``JSONRequiredError``.
private struct DatabaseValueDecoder: Decoder, SingleValueDecodingContainer {
    let dbValue: DatabaseValue
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw JSONRequiredError()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONRequiredError()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { dbValue.isNull }

    private func convert<T: DatabaseValueConvertible>(_ type: T.Type = T.self) throws -> T {
        guard let value = T.fromDatabaseValue(dbValue) else {
            throw DecodingError.dataCorruptedError(in: self, debugDescription: "value mismatch")
        }
        return value
    }

    func decode(_ type: Bool.Type) throws -> Bool { try convert() }
    func decode(_ type: String.Type) throws -> String { try convert() }
    func decode(_ type: Double.Type) throws -> Double { try convert() }
    func decode(_ type: Float.Type) throws -> Float { try convert() }
    func decode(_ type: Int.Type) throws -> Int { try convert() }
    func decode(_ type: Int8.Type) throws -> Int8 { try convert() }
    func decode(_ type: Int16.Type) throws -> Int16 { try convert() }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert() }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert() }
    func decode(_ type: UInt.Type) throws -> UInt { try convert() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try convert() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try convert() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try convert() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try convert() }

    /// A wrapped value: a database value as it converts itself, another
    /// value as it decodes itself.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            guard let value = convertible.fromDatabaseValue(dbValue) else {
                throw DecodingError.dataCorruptedError(in: self, debugDescription: "value mismatch")
            }
            return value as! T
        }
        return try T(from: self)
    }
}
