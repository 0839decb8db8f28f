import CipherDB
import Foundation
import Testing

/// Fetching, filtering, testing and deleting records by key: scalar keys,
/// ids, and dictionaries of column values, on tables with a rowid, a
/// single-column or composite primary key, and on views whose primary key
/// a schema source defines.
@Suite struct RecordKeyTests {
    struct Note: Codable, FetchableRecord, PersistableRecord, Hashable {
        var text: String
    }

    struct Reader: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
        var id: Int64
        var name: String
        var email: String
    }

    struct Loan: Codable, FetchableRecord, PersistableRecord, Hashable {
        var bookId: String
        var readerId: Int64
    }

    /// A view of readers, with INSTEAD OF triggers.
    struct ReaderView: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
        var id: Int64
        var name: String
        var email: String
    }

    struct ViewKeys: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "readerView" ? ["id"] : nil
        }
    }

    /// A database with notes "a", "b", "c" (rowids 1, 2, 3), readers 1, 2,
    /// 3 and loans (x, 1), (x, 2), (y, 1); each statement is logged.
    func makeDatabase(_ kind: DatabaseKind, log: TraceLog) throws -> DatabaseFixture {
        var configuration = encryptedConfiguration()
        configuration.schemaSource = ViewKeys()
        configuration.prepareDatabase { db in
            db.trace { log.append($0.expandedDescription) }
        }
        let fixture = try DatabaseFixture(kind, configuration: configuration)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE note (text TEXT);
                CREATE TABLE reader (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE);
                CREATE TABLE loan (bookId TEXT NOT NULL, readerId INTEGER NOT NULL, PRIMARY KEY (bookId, readerId));
                CREATE VIEW readerView AS SELECT * FROM reader;
                CREATE TRIGGER readerView_delete INSTEAD OF DELETE ON readerView BEGIN
                    DELETE FROM reader WHERE id = OLD.id;
                END;
                """)
            for text in ["a", "b", "c"] { try Note(text: text).insert(db) }
            for (id, name) in [(1, "Arthur"), (2, "Barbara"), (3, "Craig")] {
                try Reader(id: Int64(id), name: name, email: "\(name.lowercased())@example.com").insert(db)
            }
            for (bookId, readerId) in [("x", 1), ("x", 2), ("y", 1)] {
                try Loan(bookId: bookId, readerId: Int64(readerId)).insert(db)
            }
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func scalarKeysTargetTheRowid(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            #expect(try Note.fetchOne(db, key: 2)?.text == "b")
            #expect(log.lines.last == #"SELECT * FROM "note" WHERE "rowid" = 2"#)
            #expect(try Note.fetchAll(db, keys: [1, 3]).map(\.text) == ["a", "c"])
            #expect(log.lines.last == #"SELECT * FROM "note" WHERE "rowid" IN (1, 3)"#)
            #expect(try Note.exists(db, key: 3))
            #expect(try Note.deleteOne(db, key: 3))
            #expect(try !Note.deleteOne(db, key: 3))
            #expect(log.lines.last == #"DELETE FROM "note" WHERE "rowid" = 3"#)
            #expect(try Note.fetchSet(db, keys: [1, 2, 3]) == [Note(text: "a"), Note(text: "b")])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func idsAndScalarKeysTargetTheSingleColumnPrimaryKey(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            let cursor = try Reader.fetchCursor(db, ids: [3, 1])
            #expect(try Set(Array(cursor).map(\.name)) == ["Arthur", "Craig"])
            #expect(log.lines.last == #"SELECT * FROM "reader" WHERE "id" IN (3, 1)"#)
            #expect(try Reader.fetchSet(db, ids: [2]).map(\.name) == ["Barbara"])
            #expect(try Reader.filter(id: 2).fetchOne(db)?.name == "Barbara")
            #expect(log.lines.last == #"SELECT * FROM "reader" WHERE "id" = 2"#)
            #expect(try Reader.deleteAll(db, ids: [2, 3, 4]) == 2)
            #expect(log.lines.last == #"DELETE FROM "reader" WHERE "id" IN (2, 3, 4)"#)
            #expect(try Reader.fetchCount(db) == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func noKeyDoesNotHitTheDatabase(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            let count = log.lines.count
            let noKeys: [Int64] = []
            let noKeyDictionaries: [[String: (any DatabaseValueConvertible)?]] = []
            let nullKey: Int64? = nil
            #expect(try Reader.fetchAll(db, keys: noKeys).isEmpty)
            #expect(try Reader.fetchSet(db, keys: noKeyDictionaries).isEmpty)
            #expect(try Reader.fetchOne(db, key: nullKey) == nil)
            #expect(try Reader.fetchOne(db, key: nil as [String: (any DatabaseValueConvertible)?]?) == nil)
            #expect(try Reader.deleteAll(db, keys: noKeys) == 0)
            #expect(try !Reader.deleteOne(db, key: nullKey))
            #expect(try !Table<Reader>("reader").deleteOne(db, key: nullKey))
            #expect(try !Tag.exists(db, id: nil))
            #expect(try !Tag.deleteOne(db, id: nil))
            #expect(log.lines.count == count)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func dictionaryKeysTargetAUniqueKeyInKeyOrder(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            #expect(try Loan.fetchOne(db, key: ["readerId": 2, "bookId": "x"]) == Loan(bookId: "x", readerId: 2))
            #expect(log.lines.last == #"SELECT * FROM "loan" WHERE ("bookId" = 'x') AND ("readerId" = 2)"#)
            #expect(try Reader.fetchOne(db, key: ["email": "craig@example.com"])?.id == 3)
            #expect(log.lines.last == #"SELECT * FROM "reader" WHERE "email" = 'craig@example.com'"#)
            // Extra columns come after the columns of the unique key.
            #expect(try Reader.fetchAll(db, keys: [["name": "Arthur", "id": 1], ["id": nil]]).map(\.id) == [1])
            #expect(log.lines.last == #"SELECT * FROM "reader" WHERE (("id" = 1) AND ("name" = 'Arthur')) OR ("id" IS NULL)"#)
            #expect(try Loan.deleteAll(db, keys: [["bookId": "x", "readerId": 1], ["bookId": "y", "readerId": 1]]) == 2)
            #expect(try Loan.exists(db, key: ["bookId": "x", "readerId": 2]))
            #expect(try Loan.deleteOne(db, key: ["bookId": "x", "readerId": 2]))
            #expect(try Loan.fetchCount(db) == 0)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func keysWithoutUniqueIndexAreErrors(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.read { (db) throws in
            let dictionary = #expect(throws: DatabaseError.self) { try Reader.fetchOne(db, key: ["name": "Arthur"]) }
            #expect(dictionary?.message == "table reader has no unique key on column(s) name")
            let composite = #expect(throws: DatabaseError.self) { try Loan.fetchOne(db, key: "x") }
            #expect(composite?.message == "Filtering by primary key requires a single-column primary key in the table 'loan'")
            let partial = #expect(throws: DatabaseError.self) { try Loan.fetchAll(db, keys: [["bookId": "x"]]) }
            #expect(partial?.message == "table loan has no unique key on column(s) bookId")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func viewsUseThePrimaryKeyOfTheSchemaSource(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            #expect(try ReaderView.fetchOne(db, id: 2)?.name == "Barbara")
            // Rows of views are never known to be unique.
            #expect(log.lines.last == #"SELECT * FROM "readerView" WHERE "id" = 2 LIMIT 1"#)
            #expect(try ReaderView.fetchAll(db, keys: [["id": 1]]).map(\.name) == ["Arthur"])
            // Rows deleted by INSTEAD OF triggers are counted.
            #expect(try ReaderView.deleteOne(db, key: 1))
            #expect(log.lines.contains(#"DELETE FROM "readerView" WHERE "id" = 1"#))
            #expect(try ReaderView.deleteAll(db, keys: [2, 3, 4]) == 2)
            #expect(try Reader.fetchCount(db) == 0)
            let error = #expect(throws: DatabaseError.self) { try ReaderView.fetchOne(db, key: ["name": "Arthur"]) }
            #expect(error?.message == "database view readerView has no unique key on column(s) name")
        }
    }
}

extension RecordKeyTests {
    /// A record that stores its UUID primary key as an uppercase string,
    /// and its dates as seconds since 1970.
    struct Tag: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
        var id: UUID?
        var name: String
        static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    }

    struct Event: Codable, FetchableRecord, PersistableRecord, Hashable, Identifiable {
        var id: Date
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .secondsSince1970 }
    }

    @Test(arguments: DatabaseKind.allCases)
    func keysAreEncodedAsTheRecordStoresThem(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        let red = UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70")!
        let blue = UUID(uuidString: "56E7D8D3-E9E4-48B6-968E-8D102833AF00")!
        try fixture.writer.write { (db) throws in
            try db.create(table: "tag") { t in
                t.primaryKey("id", .text)
                t.column("name", .text)
            }
            try db.create(table: "event") { $0.primaryKey("id", .double) }
            try Tag(id: red, name: "red").insert(db)
            try Tag(id: blue, name: "blue").insert(db)
            try Event(id: Date(timeIntervalSince1970: 1000)).insert(db)

            #expect(try Tag.fetchOne(db, id: red)?.name == "red")
            #expect(log.lines.last == #"SELECT * FROM "tag" WHERE "id" = '61626364-6566-6768-696A-6B6C6D6E6F70'"#)
            #expect(try Tag.filter(ids: [red, blue]).fetchCount(db) == 2)
            #expect(try Table<Tag>("tag").filter(id: blue).fetchOne(db)?.name == "blue")
            #expect(try Tag.exists(db, id: red))
            #expect(try Event.exists(db, id: Date(timeIntervalSince1970: 1000)))
            #expect(log.lines.last == #"SELECT EXISTS (SELECT * FROM "event" WHERE "id" = 1000)"#)
            #expect(try Tag.deleteOne(db, id: red))
            #expect(try Table<Tag>("tag").deleteAll(db, ids: [blue, nil]) == 1)
            #expect(log.lines.last == #"DELETE FROM "tag" WHERE "id" = '56E7D8D3-E9E4-48B6-968E-8D102833AF00'"#)
            #expect(try Tag.fetchCount(db) == 0)
        }
    }
}
