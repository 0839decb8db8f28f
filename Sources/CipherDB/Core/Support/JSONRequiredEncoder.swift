// A column holds one value. A `Codable` value that encodes or decodes
// through a keyed or unkeyed container (a struct, an array, a dictionary)
// does not fit in one: it is stored as JSON text instead. The coders of
// records and of `DatabaseValueConvertible` values first try the value
// as a single value, and fall back to JSON when it asks for a container.

/// Thrown when a value asks for a keyed or unkeyed container in a column:
/// the caller encodes or decodes it as JSON instead.
struct JSONRequiredError: Error {}

/// The encoder, and containers, that a value gets when it asks for a keyed
/// or unkeyed container in a column: the first value written throws
/// ``JSONRequiredError``. The caller also checks whether a container was
/// asked for, since an empty array writes nothing.
struct JSONRequiredEncoder: Encoder, UnkeyedEncodingContainer, SingleValueEncodingContainer {
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var count: Int { 0 }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedContainer(codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { self }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { throw JSONRequiredError() }

    func encode<T: Encodable>(_ value: T) throws { throw JSONRequiredError() }

    func nestedContainer<Key: CodingKey>(keyedBy keyType: Key.Type) -> KeyedEncodingContainer<Key> {
        container(keyedBy: keyType)
    }

    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }

    func superEncoder() -> any Encoder { self }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey]

        func encodeNil(forKey key: Key) throws { throw JSONRequiredError() }

        func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw JSONRequiredError() }

        func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(KeyedContainer<NestedKey>(codingPath: codingPath + [key]))
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            JSONRequiredEncoder(codingPath: codingPath + [key])
        }

        func superEncoder() -> any Encoder { JSONRequiredEncoder(codingPath: codingPath) }

        func superEncoder(forKey key: Key) -> any Encoder { JSONRequiredEncoder(codingPath: codingPath + [key]) }
    }
}
