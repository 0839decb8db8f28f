import CipherDB
import Foundation
import TestSupport
import Testing

@Suite struct CodableRecordTests {
    struct Address: Codable, Equatable {
        var street: String
        var city: String
    }

    struct Contact: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        var id: Int64?
        var fullName: String
        var address: Address
        var tags: [String]
        var birthDate: Date
        var token: UUID
        var nickname: String?

        static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
        static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    func makeDatabase(_ kind: DatabaseKind, folder: TemporaryFolder) throws -> any DatabaseWriter {
        let writer = try kind.open(path: folder.path("db.sqlite"), configuration: encryptedConfiguration())
        try writer.write { db in
            try db.create(table: "contact") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("full_name", .text).notNull()
                t.column("address", .jsonText).notNull()
                t.column("tags", .jsonText).notNull()
                t.column("birth_date", .datetime).notNull()
                t.column("token", .blob).notNull()
                t.column("nickname", .text)
            }
        }
        return writer
    }

    static let sample = Contact(
        id: nil, fullName: "Arthur Dent", address: Address(street: "155 Country Lane", city: "Cottington"),
        tags: ["towel", "tea"], birthDate: Date(timeIntervalSince1970: 1_000_000_000.5), token: UUID(), nickname: nil)

    @Test(arguments: DatabaseKind.allCases)
    func nestedValuesRoundTripAsJSONWithSnakeCaseColumns(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let writer = try makeDatabase(kind, folder: folder)
        var contact = Self.sample
        try writer.write { db in try contact.insert(db) }
        #expect(contact.id == 1)
        let fetched = try writer.read { db in try Contact.fetchOne(db, key: 1) }
        #expect(fetched == contact)
        let row = try writer.read { db in try Row.fetchOne(db, sql: "SELECT * FROM contact")! }
        #expect(row["address"] as String == #"{"city":"Cottington","street":"155 Country Lane"}"#)
        #expect(row["tags"] as String == #"["towel","tea"]"#)
        #expect(row["birth_date"] as String == "2001-09-09 01:46:40.500")
        #expect(row["token"] as Data == withUnsafeBytes(of: contact.token.uuid) { Data($0) })
        #expect(row["nickname"] as String? == nil)
    }

    @Test func dateAndUUIDStrategies() throws {
        struct Event: Codable, FetchableRecord, PersistableRecord, Equatable {
            var id: Int64
            var date: Date
            var reference: UUID
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .lowercaseString }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "event") { t in
                t.primaryKey("id", .integer)
                t.column("date", .integer)
                t.column("reference", .text)
            }
            let event = Event(id: 1, date: Date(timeIntervalSince1970: 12.345), reference: UUID())
            try event.insert(db)
            let row = try Row.fetchOne(db, sql: "SELECT date, reference FROM event")!
            #expect(row["date"] as Int64 == 12345)
            #expect(row["reference"] as String == event.reference.uuidString.lowercased())
            #expect(try Event.fetchOne(db) == event)
        }
    }

    @Test func compositePrimaryKeys() throws {
        struct Membership: Codable, FetchableRecord, PersistableRecord, Equatable {
            var teamId: Int64
            var playerId: Int64
            var role: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "membership") { t in
                t.column("teamId", .integer).notNull()
                t.column("playerId", .integer).notNull()
                t.column("role", .text).notNull()
                t.primaryKey(["teamId", "playerId"])
            }
            try Membership(teamId: 1, playerId: 1, role: "captain").insert(db)
            try Membership(teamId: 1, playerId: 2, role: "member").insert(db)
            try Membership(teamId: 2, playerId: 1, role: "member").insert(db)

            #expect(try Membership.fetchOne(db, key: ["teamId": 1, "playerId": 2])?.role == "member")
            #expect(try Membership.fetchAll(db, keys: [["teamId": 1, "playerId": 1], ["teamId": 2, "playerId": 1]]).count == 2)
            #expect(try Membership.exists(db, key: ["teamId": 2, "playerId": 1]))
            #expect(throws: DatabaseError.self) { try Membership.fetchOne(db, key: 1) } // composite key needs a dictionary

            var membership = try Membership.find(db, key: ["teamId": 1, "playerId": 1])
            membership.role = "coach"
            try membership.update(db)
            #expect(try Membership.fetchOne(db, key: ["teamId": 1, "playerId": 1])?.role == "coach")
            #expect(try membership.delete(db))
            #expect(try Membership.deleteAll(db, keys: [["teamId": 2, "playerId": 1]]) == 1)
            #expect(try Membership.fetchCount(db) == 1)
        }
    }

    @Test func uniqueKeysOtherThanThePrimaryKey() throws {
        struct Account: Codable, FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var email: String
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "account") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).notNull().unique()
            }
            _ = try Account(email: "a@example.com").inserted(db)
            #expect(try Account.fetchOne(db, key: ["email": "a@example.com"])?.id == 1)
            #expect(try Account.fetchOne(db, key: ["email": nil]) == nil)
        }
    }

    @Test func recordsWithoutEncodableImplementTheirContainer() throws {
        // The seeds' "Avoiding Encodable" Player.
        struct LegacyPlayer: FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var name: String
            init(id: Int64?, name: String) { self.id = id; self.name = name }
            init(row: Row) { id = row["id"]; name = row["name"] }
            func encode(to container: inout PersistenceContainer) {
                container["id"] = id
                container["name"] = name
            }
            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "legacyPlayer") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            var player = LegacyPlayer(id: nil, name: "Arthur")
            try player.insert(db)
            #expect(player.id == 1)
            #expect(try LegacyPlayer.fetchOne(db)?.name == "Arthur")
        }
    }

    @Test func aColumnSetTwiceInAnotherCaseKeepsOneValueAsSQLiteMatchesNames() throws {
        // SQLite folds ASCII letters only: "É" and "é" are two columns.
        struct Mixed: MutablePersistableRecord {
            static let databaseTableName = "mixed"
            func encode(to container: inout PersistenceContainer) {
                container["Name"] = "first"
                container["É"] = 1
                container["NAME"] = "second"
                container["é"] = 2
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: #"CREATE TABLE mixed (name TEXT, "É" INTEGER, "é" INTEGER)"#)
            var record = Mixed()
            try record.insert(db)
            let row = try Row.fetchOne(db, sql: "SELECT * FROM mixed")!
            #expect(row.databaseValues == ["second".databaseValue, 1.databaseValue, 2.databaseValue])
        }
    }

    @Test func callbacksRunInOrder() throws {
        struct Audited: Codable, FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var name: String
            static let log = TraceLog()
            func willSave(_ db: Database) throws { Self.log.append("willSave") }
            func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
                Self.log.append("aroundSave>")
                _ = try save()
                Self.log.append("<aroundSave")
            }
            func didSave(_ saved: PersistenceSuccess) { Self.log.append("didSave") }
            mutating func willInsert(_ db: Database) throws { Self.log.append("willInsert") }
            func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
                Self.log.append("aroundInsert>")
                _ = try insert()
                Self.log.append("<aroundInsert")
            }
            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
                Self.log.append("didInsert")
            }
            func willDelete(_ db: Database) throws { Self.log.append("willDelete") }
            func didDelete(deleted: Bool) { Self.log.append("didDelete \(deleted)") }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "audited") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            var record = Audited(id: nil, name: "x")
            try record.insert(db)
            try record.delete(db)
        }
        #expect(Audited.log.lines == [
            "willSave", "aroundSave>", "willInsert", "aroundInsert>", "<aroundInsert", "didInsert",
            "<aroundSave", "didSave", "willDelete", "didDelete true",
        ])
    }

    /// As with `JSONDecoder`, the decoder of a nested value has the keys
    /// that lead to it: the scopes of associated records, then the column.
    @Test func nestedDecodersHaveTheirCodingPath() throws {
        struct Motto: Decodable {
            var text: String
            var path: [String]
            init(from decoder: any Decoder) throws {
                path = decoder.codingPath.map(\.stringValue)
                text = try decoder.singleValueContainer().decode(String.self)
            }
        }
        struct Captain: Decodable {
            var name: String
            var path: [String]
            enum CodingKeys: String, CodingKey { case name }
            init(from decoder: any Decoder) throws {
                path = decoder.codingPath.map(\.stringValue)
                name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
            }
        }
        struct Team: Decodable {
            var path: [String]
            var motto: Motto
            var captain: Captain
            enum CodingKeys: String, CodingKey { case motto, captain }
            init(from decoder: any Decoder) throws {
                path = decoder.codingPath.map(\.stringValue)
                let container = try decoder.container(keyedBy: CodingKeys.self)
                motto = try container.decode(Motto.self, forKey: .motto)
                captain = try container.decode(Captain.self, forKey: .captain)
            }
        }
        struct TeamInfo: Decodable, FetchableRecord {
            var team: Team
        }
        let dbQueue = try DatabaseQueue()
        let info = try dbQueue.read { (db) throws in
            let adapter = ScopeAdapter([
                "team": RangeRowAdapter(0..<1).addingScopes(["captain": RangeRowAdapter(1..<2)]),
            ])
            return try TeamInfo.fetchOne(db, SQLRequest(sql: "SELECT 'Go' AS motto, 'Arthur' AS name", adapter: adapter))!
        }
        #expect(info.team.path == ["team"])
        #expect(info.team.motto.path == ["team", "motto"])
        #expect(info.team.motto.text == "Go")
        #expect(info.team.captain.path == ["team", "captain"])
        #expect(info.team.captain.name == "Arthur")
    }

    @Test func defaultTableNames() throws {
        struct Player: TableRecord {}
        struct HTTPRequest: TableRecord {}
        struct URL: TableRecord {}
        #expect(Player.databaseTableName == "player")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(URL.databaseTableName == "url")
    }

    @Test func upsertUpdatesOrInserts() throws {
        struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
            var code: String
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "country") { t in
                t.primaryKey("code", .text)
                t.column("name", .text).notNull()
            }
            try Country(code: "FR", name: "Frace").upsert(db)
            try Country(code: "FR", name: "France").upsert(db)
            #expect(try Country.fetchAll(db) == [Country(code: "FR", name: "France")])
        }
    }
}
