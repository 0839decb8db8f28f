import CipherDB
import Foundation
import Testing

/// How `Codable` properties and `Codable` database values are stored:
/// single values as values, other values as JSON, data, dates and UUIDs
/// with the strategies of their column.
@Suite struct CodableColumnTests {
    /// A wrapper that encodes a single value.
    struct Name: Codable, Equatable {
        var value: String
        init(_ value: String) { self.value = value }
        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(String.self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    enum Color: String, Codable, Equatable {
        case red, blue
    }

    struct Position: Codable, Equatable {
        var x: Int
        var y: Int
    }

    struct Item: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: Name
        var color: Color
        var position: Position
        var tags: [String]
    }

    /// A value stored as JSON in its column.
    struct Address: Codable, Equatable, DatabaseValueConvertible {
        var street: String
        var city: String
    }

    struct Stamp: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var createdAt: Date
        var updatedAt: Date
        var reference: UUID
        var payload: Data

        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
            column == "createdAt" ? .timeIntervalSince1970 : .deferredToDate
        }

        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
            column == "createdAt" ? .timeIntervalSince1970 : .deferredToDate
        }

        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
            .uppercaseString
        }

        static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
            .text
        }
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, color TEXT, position TEXT, tags TEXT);
                CREATE TABLE stamp (id INTEGER PRIMARY KEY, createdAt, updatedAt, reference, payload);
                """)
        }
        return dbQueue
    }

    @Test func singleValuePropertiesAreStoredAsTheirValue() throws {
        let dbQueue = try makeDatabase()
        let item = Item(id: 1, name: Name("Arthur"), color: .blue, position: Position(x: 1, y: 2), tags: [])
        try dbQueue.write { db in try item.insert(db) }
        let row = try dbQueue.read { try Row.fetchOne($0, sql: "SELECT name, color FROM item")! }
        #expect(row["name"] as String == "Arthur")
        #expect(row["color"] as String == "blue")
        #expect(try dbQueue.read { try Item.fetchOne($0) } == item)
    }

    @Test func otherPropertiesAreStoredAsJSON() throws {
        let dbQueue = try makeDatabase()
        let item = Item(id: 1, name: Name("Arthur"), color: .red, position: Position(x: 1, y: 2), tags: [])
        try dbQueue.write { db in try item.insert(db) }
        let row = try dbQueue.read { try Row.fetchOne($0, sql: "SELECT position, tags FROM item")! }
        #expect(row["position"] as String == #"{"x":1,"y":2}"#)
        // An empty array writes nothing, and is still JSON.
        #expect(row["tags"] as String == "[]")
        #expect(try dbQueue.read { try Item.fetchOne($0) } == item)
    }

    @Test func strategiesApplyToTheirColumn() throws {
        let dbQueue = try makeDatabase()
        let date = Date(timeIntervalSince1970: 1_000_000_000)
        let uuid = UUID()
        let stamp = Stamp(id: 1, createdAt: date, updatedAt: date, reference: uuid, payload: Data("hello".utf8))
        try dbQueue.write { db in try stamp.insert(db) }
        let row = try dbQueue.read { try Row.fetchOne($0, sql: "SELECT * FROM stamp")! }
        #expect(row["createdAt"] as Double == 1_000_000_000)
        #expect(row["updatedAt"] as String == "2001-09-09 01:46:40.000")
        #expect(row["reference"] as String == uuid.uuidString)
        #expect(row["payload"] as String == "hello")
        #expect(try dbQueue.read { try Stamp.fetchOne($0) } == stamp)
    }

    @Test func codableDatabaseValuesAreJSON() throws {
        let address = Address(street: "Rue de Rivoli", city: "Paris")
        #expect(address.databaseValue == #"{"city":"Paris","street":"Rue de Rivoli"}"#.databaseValue)
        #expect(Address.fromDatabaseValue(address.databaseValue) == address)
        #expect(Address.fromDatabaseValue("not json".databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        let fetched = try dbQueue.read { (db) throws in
            try Address.fetchOne(db, sql: "SELECT ?", arguments: [address])
        }
        #expect(fetched == address)
    }

    @Test func codableEnumsAreStoredAsTheirRawValue() {
        enum Size: Int, Codable, DatabaseValueConvertible {
            case small = 1, large = 2
        }
        #expect(Size.large.databaseValue == 2.databaseValue)
        #expect(Size.fromDatabaseValue(1.databaseValue) == .small)
    }

    @Test func recordsDecodeJSONUserInfoFromTheirCoder() throws {
        struct Length: Decodable, Equatable {
            var value: Double
            var unit: String?
            enum CodingKeys: CodingKey { case value }
            init(value: Double, unit: String?) { self.value = value; self.unit = unit }
            init(from decoder: any Decoder) throws {
                value = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .value)
                unit = decoder.userInfo[CodingUserInfoKey(rawValue: "unit")!] as? String
            }
        }
        struct Measure: Decodable, FetchableRecord {
            var length: Length
            static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] {
                [CodingUserInfoKey(rawValue: "unit")!: "cm"]
            }
        }
        let dbQueue = try DatabaseQueue()
        let measure = try dbQueue.read { (db) throws in
            try Measure.fetchOne(db, sql: #"SELECT '{"value":3}' AS length"#)!
        }
        #expect(measure.length == Length(value: 3, unit: "cm"))
    }
}
