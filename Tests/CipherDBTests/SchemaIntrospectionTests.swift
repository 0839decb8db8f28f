import CipherDB
import Foundation
import TestSupport
import Testing

/// Primary keys, schemas, views with a schema source, and foreign key
/// checks, as `Database` reports them.
@Suite struct SchemaIntrospectionTests {
    /// Gives the view `bookView` the primary key `isbn`, and the view
    /// `loanView` the key (`bookId`, `readerId`).
    struct ViewKeys: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            switch view.name {
            case "bookView": return ["ISBN"]
            case "loanView": return ["bookId", "readerId"]
            case "emptyKeyView": return []
            default: return nil
            }
        }
    }

    func makeLibrary(_ kind: DatabaseKind, schemaSource: (any DatabaseSchemaSource)? = nil) throws -> DatabaseFixture {
        var configuration = encryptedConfiguration()
        configuration.schemaSource = schemaSource
        let fixture = try DatabaseFixture(kind, configuration: configuration)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE note (text TEXT);
                CREATE TABLE reader (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book (isbn TEXT PRIMARY KEY, title TEXT);
                CREATE TABLE loan (bookId TEXT, readerId INTEGER, PRIMARY KEY (bookId, readerId));
                CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID;
                CREATE TABLE shelf (id INTEGER PRIMARY KEY, position INT) WITHOUT ROWID;
                CREATE TABLE legacy (id INTEGER PRIMARY KEY DESC, name TEXT);
                CREATE VIEW bookView AS SELECT isbn, title FROM book;
                CREATE VIEW loanView AS SELECT * FROM loan;
                CREATE VIEW emptyKeyView AS SELECT * FROM loan;
                """)
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func primaryKeysOfRowidTables(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind)
        try fixture.writer.read { (db) throws in
            let note = try db.primaryKey("note")
            #expect(note.columns == ["rowid"])
            #expect(note.columnInfos == nil)
            #expect(note.rowIDColumn == nil)
            #expect(note.isRowID && note.tableHasRowID)

            let reader = try db.primaryKey("reader")
            #expect(reader.columns == ["id"])
            #expect(reader.columnInfos?.map(\.type) == ["INTEGER"])
            #expect(reader.rowIDColumn == "id")
            #expect(reader.isRowID && reader.tableHasRowID)

            let book = try db.primaryKey("book")
            #expect(book.columns == ["isbn"])
            #expect(book.rowIDColumn == nil)
            #expect(!book.isRowID && book.tableHasRowID)

            let loan = try db.primaryKey("loan")
            #expect(loan.columns == ["bookId", "readerId"])
            #expect(loan.columnInfos?.map(\.primaryKeyIndex) == [1, 2])
            #expect(!loan.isRowID && loan.tableHasRowID)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func primaryKeysOfTablesWithoutRowid(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind)
        try fixture.writer.read { (db) throws in
            let tag = try db.primaryKey("tag")
            #expect(tag.columns == ["name"])
            #expect(!tag.isRowID && !tag.tableHasRowID)
            // An INTEGER PRIMARY KEY aliases the rowid only in a rowid table.
            let shelf = try db.primaryKey("shelf")
            #expect(shelf.columns == ["id"])
            #expect(shelf.rowIDColumn == nil)
            #expect(!shelf.isRowID && !shelf.tableHasRowID)
        }
    }

    @Test func integerPrimaryKeyDescendingDoesNotAliasTheRowid() throws {
        // See <https://www.sqlite.org/lang_createtable.html#rowid>.
        let fixture = try makeLibrary(.queue)
        try fixture.writer.read { (db) throws in
            let legacy = try db.primaryKey("legacy")
            #expect(legacy.columns == ["id"])
            #expect(legacy.rowIDColumn == nil)
            #expect(legacy.tableHasRowID)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func missingTablesAndViewsWithoutKeyAreErrors(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind)
        try fixture.writer.read { (db) throws in
            let missing = #expect(throws: DatabaseError.self) { try db.primaryKey("missing") }
            #expect(missing?.resultCode == .SQLITE_ERROR)
            #expect(missing?.message == "no such table: missing")
            let view = #expect(throws: DatabaseError.self) { try db.primaryKey("bookView") }
            #expect(view?.description == "SQLite error 1: database view bookView has no primary key")
            let schema = #expect(throws: DatabaseError.self) { try db.primaryKey("book", in: "nowhere") }
            #expect(schema?.message == "no such schema: nowhere")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func schemaSourceGivesViewsTheirPrimaryKey(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind, schemaSource: ViewKeys())
        try fixture.writer.read { (db) throws in
            let bookView = try db.primaryKey("bookView")
            // Named as the view names them.
            #expect(bookView.columns == ["isbn"])
            #expect(bookView.columnInfos?.map(\.type) == ["TEXT"])
            #expect(!bookView.isRowID && !bookView.tableHasRowID)
            #expect(try db.primaryKey("loanView").columns == ["bookId", "readerId"])
            // An empty answer is no primary key.
            #expect(throws: DatabaseError.self) { try db.primaryKey("emptyKeyView") }
            // Tables keep theirs.
            #expect(try db.primaryKey("reader").rowIDColumn == "id")
        }
    }

    @Test func withSchemaSourceReplacesTheSourceForItsBody() throws {
        let fixture = try makeLibrary(.queue)
        try fixture.writer.read { (db) throws in
            #expect(throws: DatabaseError.self) { try db.primaryKey("bookView") }
            let columns = try db.withSchemaSource(ViewKeys()) { try db.primaryKey("bookView").columns }
            #expect(columns == ["isbn"])
            #expect(throws: DatabaseError.self) { try db.primaryKey("bookView") }
        }
    }

    @Test func schemasAreSearchedTempThenMainThenAttached() throws {
        let folder = try TemporaryFolder()
        let attachedPath = folder.path("attached.sqlite")
        let attached = try DatabaseQueue(path: attachedPath)
        try attached.write { (db) throws in
            try db.execute(sql: "CREATE TABLE item (attachedId INTEGER PRIMARY KEY); CREATE TABLE extra (id INTEGER PRIMARY KEY)")
        }
        let main = try DatabaseQueue(path: folder.path("main.sqlite"))
        try main.writeWithoutTransaction { (db) throws in
            try db.execute(sql: "CREATE TABLE item (mainId INTEGER PRIMARY KEY)")
            try db.execute(literal: "ATTACH DATABASE \(attachedPath) AS other")
            #expect(try db.primaryKey("item").columns == ["mainId"])
            #expect(try db.primaryKey("item", in: "other").columns == ["attachedId"])
            #expect(try db.primaryKey("extra").columns == ["id"])
            #expect(try db.tableExists("extra"))
            #expect(try !db.tableExists("extra", in: "main"))
            #expect(try db.columns(in: "item", in: "OTHER").map(\.name) == ["attachedId"])
            try db.execute(sql: "CREATE TEMP TABLE item (tempId INTEGER PRIMARY KEY)")
            #expect(try db.primaryKey("item").columns == ["tempId"])
            #expect(try db.primaryKey("item", in: "main").columns == ["mainId"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func existenceOfTablesViewsAndTriggers(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE TRIGGER bookDeleted AFTER DELETE ON book BEGIN DELETE FROM loan WHERE bookId = OLD.isbn; END")
            #expect(try db.tableExists("BOOK"))
            #expect(try !db.tableExists("bookView"))
            #expect(try db.viewExists("bookview"))
            #expect(try db.triggerExists("bookDeleted"))
            #expect(try !db.triggerExists("book"))
            #expect(throws: DatabaseError.self) { try db.viewExists("bookView", in: "nowhere") }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func indexesSayHowTheyWereMade(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE member (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT);
                CREATE INDEX member_name ON member(name);
                CREATE INDEX member_lowerName ON member(lower(name));
                """)
            let indexes = try db.indexes(on: "member").sorted { $0.name < $1.name }
            // The index on an expression is not listed.
            #expect(indexes.map(\.name) == ["member_name", "sqlite_autoindex_member_1"])
            #expect(indexes.map(\.origin) == [.createIndex, .uniqueConstraint])
            #expect(try db.indexes(on: "book").map(\.origin) == [.primaryKeyConstraint])
            #expect(try db.table("member", hasUniqueKey: ["EMAIL", "name"]))
            #expect(try !db.table("member", hasUniqueKey: ["name"]))
            #expect(try db.table("note", hasUniqueKey: ["rowid"]))
            #expect(try !db.table("tag", hasUniqueKey: ["rowid"]))
            #expect(throws: DatabaseError.self) { try db.indexes(on: "bookView") }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func foreignKeyChecksDescribeTheViolation(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind)
        try fixture.writer.writeWithoutTransaction { (db) throws in
            try db.execute(sql: """
                CREATE TABLE review (id INTEGER PRIMARY KEY, readerId INTEGER REFERENCES reader, stars INTEGER);
                PRAGMA foreign_keys = OFF;
                INSERT INTO review (readerId, stars) VALUES (7, 5);
                PRAGMA foreign_keys = ON;
                """)
            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.map(\.description) == ["FOREIGN KEY constraint violation - from review to reader, in rowid 1"])
            #expect(try Array(db.foreignKeyViolations(in: "reader")).isEmpty)
            let error = #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "review") }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            #expect(error?.message == "FOREIGN KEY constraint violation - from review(readerId) to reader(id), in [id:1 readerId:7 stars:5]")
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "missing") }
            try db.execute(sql: "DELETE FROM review")
            try db.checkForeignKeys()
        }
    }

    /// SQLite 3.15.2 reports a rowid for a row of a WITHOUT ROWID table:
    /// the description names no row, as GRDB's does on later SQLites.
    @Test func aForeignKeyViolationInAWithoutRowIDTableNamesTheKeyButNoRow() throws {
        try DatabaseQueue().writeWithoutTransaction { (db) throws in
            try db.execute(sql: """
                CREATE TABLE parent(a TEXT NOT NULL, b TEXT NOT NULL, PRIMARY KEY (a, b));
                CREATE TABLE child(id INTEGER NOT NULL PRIMARY KEY, parentA, parentB, \
                FOREIGN KEY (parentA, parentB) REFERENCES parent(a, b)) WITHOUT ROWID;
                PRAGMA foreign_keys = OFF;
                INSERT INTO child (id, parentA, parentB) VALUES (13, 'foo', 'bar');
                """)
            let error = #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            #expect(error?.message == "FOREIGN KEY constraint violation - from child(parentA, parentB) to parent(a, b)")
        }
    }

    @Test func aForeignKeyMappingIsAListOfColumnPairs() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try db.execute(sql: """
                CREATE TABLE parent(a, b, PRIMARY KEY (a, b));
                CREATE TABLE child(x, y, FOREIGN KEY (x, y) REFERENCES parent(b, a));
                """)
            let foreignKey = try #require(db.foreignKeys(on: "child").first)
            let (origin, destination) = foreignKey.mapping[0]
            #expect(origin == "x")
            #expect(destination == "b")
            #expect(foreignKey.mapping.map(\.destination) == ["b", "a"])
        }
    }

    @Test func associationsFromViewsUseTheGivenColumnsAndThePrimaryKey() throws {
        let fixture = try makeLibrary(.queue)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE VIEW latestLoan AS SELECT readerId AS who FROM loan")
            let latestLoan = Table("latestLoan")
            let reader = latestLoan.belongsTo(Table("reader"), using: ForeignKey(["who"]))
            let statement = try latestLoan.joining(required: reader).makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT "latestLoan".* FROM "latestLoan" JOIN "reader" ON "reader"."id" = "latestLoan"."who""#)
        }
    }

    /// A query prepared before a table shadows another reads the new table:
    /// the statements cached before a schema change are forgotten.
    @Test func queriesReadTheTableThatShadowsAnother() throws {
        let folder = try TemporaryFolder()
        let attachedPath = folder.path("attached.sqlite")
        try DatabaseQueue(path: attachedPath).write { (db) throws in
            try db.execute(sql: "CREATE TABLE item (attachedColumn TEXT); INSERT INTO item VALUES ('attached')")
        }
        let main = try DatabaseQueue(path: folder.path("main.sqlite"))
        try main.writeWithoutTransaction { (db) throws in
            func itemAndColumn() throws -> [String?] {
                try [String.fetchOne(db, sql: "SELECT * FROM item"),
                     Row.fetchOne(db, sql: "PRAGMA table_info(item)")?["name"]]
            }
            try db.execute(literal: "ATTACH DATABASE \(attachedPath) AS other")
            #expect(try itemAndColumn() == ["attached", "attachedColumn"])
            try db.execute(sql: "CREATE TABLE item (mainColumn TEXT); INSERT INTO item VALUES ('main')")
            #expect(try itemAndColumn() == ["main", "mainColumn"])
            try db.execute(sql: "CREATE TEMP TABLE item (tempColumn TEXT); INSERT INTO item VALUES ('temp')")
            #expect(try itemAndColumn() == ["temp", "tempColumn"])
            try db.execute(sql: "DROP TABLE temp.item; DROP TABLE main.item")
            #expect(try itemAndColumn() == ["attached", "attachedColumn"])
            try db.execute(sql: "DETACH DATABASE other")
            #expect(throws: DatabaseError.self) { try itemAndColumn() }
        }
    }

    /// A pool reader's `PRAGMA` sees the schema that the writer changed.
    @Test func readersSeeTheSchemaChangesOfTheWriter() throws {
        var configuration = encryptedConfiguration()
        configuration.maximumReaderCount = 1 // The same reader reads twice.
        let fixture = try DatabaseFixture(.pool, configuration: configuration)
        try fixture.writer.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let pragma = "PRAGMA table_info(t)"
        #expect(try fixture.writer.read { try Row.fetchAll($0, sql: pragma).map { $0["name"] as String } } == ["a"])
        try fixture.writer.write { db in try db.execute(sql: "ALTER TABLE t ADD COLUMN b") }
        #expect(try fixture.writer.read { try Row.fetchAll($0, sql: pragma).map { $0["name"] as String } } == ["a", "b"])
        #expect(try fixture.writer.read { try $0.columns(in: "t").map(\.name) } == ["a", "b"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func schemaVersionGrowsWithTheSchema(_ kind: DatabaseKind) throws {
        let fixture = try makeLibrary(kind)
        try fixture.writer.write { (db) throws in
            let version = try db.schemaVersion()
            try db.execute(sql: "CREATE TABLE extra (id INTEGER PRIMARY KEY)")
            #expect(try db.schemaVersion() > version)
        }
    }

    /// Records read the schema from a cache, which the first use in each
    /// access checks against `PRAGMA schema_version`: a change that
    /// another connection made between two accesses is seen, by a write
    /// and by a read (a reader's own cache).
    @Test(arguments: DatabaseKind.allCases)
    func recordsSeeTheSchemaThatAnotherConnectionChanged(_ kind: DatabaseKind) throws {
        struct Item: Codable, FetchableRecord, PersistableRecord {
            var a: String
            var b: String
        }
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        var configuration = encryptedConfiguration()
        configuration.maximumReaderCount = 1 // The same reader reads twice.
        let writer = try kind.open(path: path, configuration: configuration)
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE item (a TEXT PRIMARY KEY, b TEXT)")
            try Item(a: "1", b: "x").insert(db)
        }
        let other = try DatabaseQueue(path: path, configuration: encryptedConfiguration())
        // Both connections cache the primary key, a.
        #expect(try writer.read { db in try Item(a: "1", b: "?").exists(db) })
        try writer.write { db in try Item(a: "1", b: "y").update(db) }

        try other.write { db in
            try db.execute(sql: "DROP TABLE item; CREATE TABLE item (a TEXT, b TEXT PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO item VALUES ('1', 'y'), ('2', 'z')")
        }

        // The primary key is b now.
        #expect(try writer.read { db in try Item(a: "?", b: "z").exists(db) })
        try writer.write { db in try Item(a: "3", b: "z").update(db) }
        let rows = try writer.read { db in try Row.fetchAll(db, sql: "SELECT a, b FROM item ORDER BY b") }
        #expect(rows == [["a": "1", "b": "y"], ["a": "3", "b": "z"]])
    }

    @Test func clearSchemaCacheSeesAChangeMadeByAnotherConnection() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        let first = try DatabaseQueue(path: path)
        let second = try DatabaseQueue(path: path)
        try first.write { db in try db.execute(sql: "CREATE TABLE t (a TEXT PRIMARY KEY)") }
        try second.inDatabase { (db) throws in
            #expect(try db.primaryKey("t").columns == ["a"])
            // Another connection changes the schema during this access.
            try first.write { (db) throws in
                try db.execute(sql: "DROP TABLE t; CREATE TABLE t (b TEXT PRIMARY KEY)")
            }
            db.clearSchemaCache()
            #expect(try db.primaryKey("t").columns == ["b"])
        }
    }
}
