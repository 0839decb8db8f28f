import Foundation

// The encoder of `Encodable` records: each property becomes a column of the
// same name (or the name given by the column encoding strategy). Database
// values are stored as they are; data, dates and UUIDs with the record's
// strategies for their column; a value that encodes a single value (a
// wrapper, an enum with a raw value) as that value; other values (structs,
// arrays, dictionaries) as JSON text. Nil optionals are stored as NULL, so
// that updates clear them.

extension EncodableRecord where Self: Encodable {
    /// Encodes the record with its `Encodable` implementation, after the
    /// values already in the container.
    public func encode(to container: inout PersistenceContainer) throws {
        let encoder = DatabaseRecordEncoder<Self>(container: container)
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

    init(container: PersistenceContainer) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: container)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fatalError("unkeyed encoding is not supported: a record encodes its properties in a keyed container")
    }

    /// A record that encodes a single value encodes another record (or a
    /// value that encodes in a keyed container) in its place.
    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordValueContainer(encoder: self)
    }

    func set(_ dbValue: DatabaseValue, forKey key: some CodingKey) {
        storage.pointee.setValue(dbValue, forColumn: columnStrategy.column(for: key))
    }

    /// Stores any encodable value in the column of `key`.
    func encode<Value: Encodable>(_ value: Value, forKey key: some CodingKey) throws {
        // Comparing types is cheap; a failed dynamic cast is not.
        if Value.self == Date.self {
            let column = columnStrategy.column(for: key)
            storage.pointee.setValue(Record.databaseDateEncodingStrategy(for: column).encode(value as! Date), forColumn: column)
        } else if Value.self == UUID.self {
            let column = columnStrategy.column(for: key)
            storage.pointee.setValue(Record.databaseUUIDEncodingStrategy(for: column).encode(value as! UUID), forColumn: column)
        } else if Value.self == Data.self {
            let column = columnStrategy.column(for: key)
            storage.pointee.setValue(try Record.databaseDataEncodingStrategy(for: column).encode(value as! Data), forColumn: column)
        } else if let convertible = value as? any DatabaseValueConvertible {
            // A type's database conversion wins over its `Encodable` one.
            set(convertible.databaseValue, forKey: key)
        } else {
            try encodeColumnValue(value, forKey: key)
        }
    }

    /// A value encoded as a single value if it is one, or else as JSON.
    private func encodeColumnValue<Value: Encodable>(_ value: Value, forKey key: some CodingKey) throws {
        let columnEncoder = ColumnEncoder(recordEncoder: self, key: key)
        do {
            try value.encode(to: columnEncoder)
            // An empty array or object asks for a container, and writes nothing.
            if columnEncoder.requiresJSON { throw JSONRequiredError() }
        } catch is JSONRequiredError {
            let json = try Record.databaseJSONEncoder(for: key.stringValue).encode(value)
            // Text, readable in the database shell; decoded from text or blob.
            set(String(decoding: json, as: UTF8.self).databaseValue, forKey: key)
        }
    }

    // MARK: - Containers

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
            try encoder.encode(value, forKey: key)
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

        func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value {
                try encoder.encode(value, forKey: key)
            } else {
                encoder.set(.null, forKey: key)
            }
        }

        /// A standard optional, with no dynamic cast: NULL for nil.
        private func encodeConvertible<T: DatabaseValueConvertible>(_ value: T?, forKey key: Key) {
            encoder.set(value?.databaseValue ?? .null, forKey: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            fatalError("nested containers are not supported in records: store nested values as Codable properties (JSON)")
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            fatalError("nested containers are not supported in records: store nested values as Codable properties (JSON)")
        }

        func superEncoder() -> any Encoder { encoder }
        func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    /// The single value of a record: another record, or a value that
    /// encodes its own columns. A lone number or string has no column to
    /// go to.
    struct RecordValueContainer: SingleValueEncodingContainer {
        let encoder: DatabaseRecordEncoder
        var codingPath: [any CodingKey] { [] }

        func encodeNil() throws { noColumn() }

        func encode<T: Encodable>(_ value: T) throws {
            if let record = value as? any EncodableRecord {
                try record.encode(to: &encoder.storage.pointee)
            } else {
                try value.encode(to: encoder)
            }
        }

        private func noColumn() -> Never {
            fatalError("Can't encode a single value in a database row.")
        }

        func encode(_ value: Bool) throws { noColumn() }
        func encode(_ value: String) throws { noColumn() }
        func encode(_ value: Double) throws { noColumn() }
        func encode(_ value: Float) throws { noColumn() }
        func encode(_ value: Int) throws { noColumn() }
        func encode(_ value: Int8) throws { noColumn() }
        func encode(_ value: Int16) throws { noColumn() }
        func encode(_ value: Int32) throws { noColumn() }
        func encode(_ value: Int64) throws { noColumn() }
        func encode(_ value: UInt) throws { noColumn() }
        func encode(_ value: UInt8) throws { noColumn() }
        func encode(_ value: UInt16) throws { noColumn() }
        func encode(_ value: UInt32) throws { noColumn() }
        func encode(_ value: UInt64) throws { noColumn() }
    }
}

/// The encoder of one property: a single value goes to the property's
/// column; a keyed or unkeyed container means JSON.
private final class ColumnEncoder<Record: EncodableRecord, Key: CodingKey>: Encoder, SingleValueEncodingContainer {
    let recordEncoder: DatabaseRecordEncoder<Record>
    let key: Key
    /// Set when the value asks for a container: it must be stored as JSON.
    private(set) var requiresJSON = false
    var codingPath: [any CodingKey] { [key] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    init(recordEncoder: DatabaseRecordEncoder<Record>, key: Key) {
        self.recordEncoder = recordEncoder
        self.key = key
    }

    func container<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        requiresJSON = true
        return JSONRequiredEncoder(codingPath: codingPath).container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        requiresJSON = true
        return JSONRequiredEncoder(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { recordEncoder.set(.null, forKey: key) }
    func encode(_ value: Bool) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: String) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: Double) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: Float) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: Int) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: Int8) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: Int16) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: Int32) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: Int64) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt8) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt16) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt32) throws { recordEncoder.set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt64) throws { recordEncoder.set(value.databaseValue, forKey: key) }

    /// A wrapped value: a date in a wrapper still follows the date strategy.
    func encode<T: Encodable>(_ value: T) throws {
        try recordEncoder.encode(value, forKey: key)
    }
}
