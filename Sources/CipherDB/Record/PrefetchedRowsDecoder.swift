/// Decodes the records of a to-many association from its prefetched rows:
/// `books` in `struct AuthorInfo: Decodable { var author: Author; var books: [Book] }`,
/// fetched with `Author.including(all: Author.books)`. An array or a set
/// decodes each element from one row.
struct PrefetchedRowsDecoder<Record: FetchableRecord>: Decoder {
    let rows: [Row]
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(
            KeyedDecodingContainer<Key>.self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "prefetched rows decode as a collection, such as an array"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        Elements(rows: rows, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            Any.self,
            DecodingError.Context(codingPath: codingPath, debugDescription: "prefetched rows decode as a collection, such as an array"))
    }

    /// The elements of the collection, one a row.
    struct Elements: UnkeyedDecodingContainer {
        let rows: [Row]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(rows: [Row], codingPath: [any CodingKey]) {
            self.rows = rows
            self.codingPath = codingPath
        }

        var count: Int? { rows.count }
        var isAtEnd: Bool { currentIndex >= rows.count }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try DatabaseRowDecoder<Record>.decode(T.self, from: nextRow())
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try DatabaseRowDecoder<Record>(row: nextRow()).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                (any UnkeyedDecodingContainer).self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "a prefetched row is not a collection"))
        }

        mutating func superDecoder() throws -> any Decoder {
            try DatabaseRowDecoder<Record>(row: nextRow())
        }

        private mutating func nextRow() throws -> Row {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Row.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no more prefetched rows"))
            }
            defer { currentIndex += 1 }
            return rows[currentIndex]
        }
    }
}
