import Foundation

// `Encodable` types get their database value from their `Encodable`
// implementation: a type that encodes a single value (a wrapper, an enum
// with a raw value) is stored as that value, and other types (structs,
// arrays, dictionaries) as JSON text.

extension DatabaseValueConvertible where Self: Encodable {
    /// The database value of the `Encodable` implementation: the single
    /// value it encodes, or JSON text.
    ///
    /// ```swift
    /// struct Address: Codable, DatabaseValueConvertible {
    ///     var street: String
    ///     var city: String
    /// }
    /// // {"city":"Paris","street":"Rue de Rivoli"}
    /// let dbValue = Address(street: "Rue de Rivoli", city: "Paris").databaseValue
    /// ```
    public var databaseValue: DatabaseValue {
        // As in GRDB: a value whose `encode(to:)` fails has no database
        // value, and the property can not throw.
        try! DatabaseValueEncoder.databaseValue(of: self, jsonEncoder: Self.databaseJSONEncoder)
    }
}

extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The database value of the raw value, not of the `Encodable`
    /// implementation.
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }
}

/// Encodes a value into one database value.
private final class DatabaseValueEncoder: Encoder, SingleValueEncodingContainer {
    private(set) var dbValue: DatabaseValue = .null
    /// Set when the value asks for a container: it must be stored as JSON.
    private var requiresJSON = false
    private let jsonEncoder: () -> JSONEncoder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private init(jsonEncoder: @escaping () -> JSONEncoder) {
        self.jsonEncoder = jsonEncoder
    }

    /// The single value that `value` encodes, or else its JSON text.
    static func databaseValue<Value: Encodable>(of value: Value, jsonEncoder: @escaping () -> JSONEncoder) throws -> DatabaseValue {
        let encoder = DatabaseValueEncoder(jsonEncoder: jsonEncoder)
        do {
            try value.encode(to: encoder)
            // An empty array or object asks for a container, and writes nothing.
            if !encoder.requiresJSON { return encoder.dbValue }
        } catch is JSONRequiredError {}
        let json = try jsonEncoder().encode(value)
        // Text, readable in the database shell; decoded from text or blob.
        return String(decoding: json, as: UTF8.self).databaseValue
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        requiresJSON = true
        return JSONRequiredEncoder(codingPath: codingPath).container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        requiresJSON = true
        return JSONRequiredEncoder(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { dbValue = .null }
    func encode(_ value: Bool) throws { dbValue = value.databaseValue }
    func encode(_ value: String) throws { dbValue = value.databaseValue }
    func encode(_ value: Double) throws { dbValue = value.databaseValue }
    func encode(_ value: Float) throws { dbValue = value.databaseValue }
    func encode(_ value: Int) throws { dbValue = value.databaseValue }
    func encode(_ value: Int8) throws { dbValue = value.databaseValue }
    func encode(_ value: Int16) throws { dbValue = value.databaseValue }
    func encode(_ value: Int32) throws { dbValue = value.databaseValue }
    func encode(_ value: Int64) throws { dbValue = value.databaseValue }
    func encode(_ value: UInt) throws { dbValue = value.databaseValue }
    func encode(_ value: UInt8) throws { dbValue = value.databaseValue }
    func encode(_ value: UInt16) throws { dbValue = value.databaseValue }
    func encode(_ value: UInt32) throws { dbValue = value.databaseValue }
    func encode(_ value: UInt64) throws { dbValue = value.databaseValue }

    /// A wrapped value: a database value as it converts itself, another
    /// value as it encodes itself (single value, or JSON of its own).
    func encode<T: Encodable>(_ value: T) throws {
        if let convertible = value as? any DatabaseValueConvertible {
            dbValue = convertible.databaseValue
        } else {
            dbValue = try Self.databaseValue(of: value, jsonEncoder: jsonEncoder)
        }
    }
}
