import Foundation

// The encoder of `Encodable` records: each property becomes a column of the
// same name (or the name given by the column encoding strategy). Database
// values are stored as they are, dates and UUIDs with the record's
// strategies, other values as JSON text. Nil optionals are stored as NULL,
// so that updates clear them.

extension EncodableRecord where Self: Encodable {
    /// Encodes the record with its `Encodable` implementation.
    public func encode(to container: inout PersistenceContainer) throws {
        let encoder = DatabaseRecordEncoder<Self>()
        try encode(to: encoder)
        container = encoder.container
    }
}

final class DatabaseRecordEncoder<Record: EncodableRecord>: Encoder {
    /// Behind a pointer: each property set would otherwise pay an
    /// exclusivity check on a class property.
    private let storage: UnsafeMutablePointer<PersistenceContainer>
    var container: PersistenceContainer { storage.pointee }
    /// Read once per record, not once per property.
    private let columnStrategy = Record.databaseColumnEncodingStrategy
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: PersistenceContainer())
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fatalError("A record must encode a keyed container: its properties are columns.")
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        fatalError("A record must encode a keyed container: its properties are columns.")
    }

    func set(_ dbValue: DatabaseValue, forKey key: some CodingKey) {
        storage.pointee.setValue(dbValue, forColumn: columnStrategy.column(for: key))
    }

    /// The database value of any encodable value.
    func databaseValue<Value: Encodable>(of value: Value, forKey key: some CodingKey) throws -> DatabaseValue {
        // Comparing types is cheap; a failed dynamic cast is not.
        if Value.self == Date.self {
            return Record.databaseDateEncodingStrategy.encode(value as! Date)
        }
        if Value.self == UUID.self {
            return Record.databaseUUIDEncodingStrategy.encode(value as! UUID)
        }
        if let convertible = value as? any DatabaseValueConvertible {
            return convertible.databaseValue
        }
        let column = columnStrategy.column(for: key)
        let encoder = Record.databaseJSONEncoder(for: column)
        encoder.userInfo = Record.databaseEncodingUserInfo
        return String(decoding: try encoder.encode(value), as: UTF8.self).databaseValue
    }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: DatabaseRecordEncoder
        var codingPath: [any CodingKey] { [] }

        func encodeNil(forKey key: Key) throws { encoder.set(.null, forKey: key) }
        func encode(_ value: Bool, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: String, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: Double, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: Float, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: Int, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: Int8, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: Int16, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: Int32, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: Int64, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: UInt, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: UInt8, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: UInt16, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: UInt32, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }
        func encode(_ value: UInt64, forKey key: Key) throws { encoder.set(value.databaseValue, forKey: key) }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            encoder.set(try encoder.databaseValue(of: value, forKey: key), forKey: key)
        }

        // Nil optionals are NULL, not missing columns.
        func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: String?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: Double?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: Float?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: Int?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { encodeConvertible(value, forKey: key) }
        func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }

        /// A standard optional, with no dynamic cast: NULL for nil.
        private func encodeConvertible<T: DatabaseValueConvertible>(_ value: T?, forKey key: Key) {
            encoder.set(value?.databaseValue ?? .null, forKey: key)
        }

        private func encodeOptional<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value {
                try encode(value, forKey: key)
            } else {
                encoder.set(.null, forKey: key)
            }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            fatalError("Nested containers are not supported in records: store nested values as Codable properties (JSON).")
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            fatalError("Nested containers are not supported in records: store nested values as Codable properties (JSON).")
        }

        func superEncoder() -> any Encoder { encoder }
        func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }
}
