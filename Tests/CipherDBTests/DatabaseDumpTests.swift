import CipherDB
import Foundation
import Testing

/// A text stream that keeps what a dump writes (a class: dumps write to a
/// copy of the stream they are given).
final class DumpText: TextOutputStream {
    var text = ""

    func write(_ string: String) {
        text += string
    }
}

/// The dumps of GRDB (`dumpSQL`, `dumpRequest`, `dumpTables`,
/// `dumpContent`, `dumpSchema`) and their formats, on encrypted databases.
@Suite struct DatabaseDumpTests {
    struct Player: Codable, FetchableRecord, PersistableRecord {
        static let team = belongsTo(Team.self)
        var id: Int64
        var name: String
        var teamId: String?
    }

    struct Team: Codable, FetchableRecord, PersistableRecord {
        static let players = hasMany(Player.self)
        var id: String
        var name: String
    }

    /// `team(id, name)` and `player(id, name, teamId)`: two teams, three
    /// players, one of them without a team.
    func makeLeague(_ kind: DatabaseKind = .queue) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.belongsTo("team")
            }
            try Team(id: "RED", name: "Red").insert(db)
            try Team(id: "BLU", name: "Blue").insert(db)
            try Player(id: 1, name: "Arthur", teamId: "RED").insert(db)
            try Player(id: 2, name: "Barbara", teamId: "BLU").insert(db)
            try Player(id: 3, name: "Craig", teamId: nil).insert(db)
        }
        return fixture
    }

    func dump(_ fixture: DatabaseFixture, _ body: (Database, DumpText) throws -> Void) throws -> String {
        let output = DumpText()
        try fixture.writer.writeWithoutTransaction { (db) throws in try body(db, output) }
        return output.text
    }

    /// A table of one value of each kind: `value(name, value)`.
    func makeValues() throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(.queue)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE value(name, value);
                INSERT INTO value VALUES ('a: null', NULL);
                INSERT INTO value VALUES ('b: integer', -12);
                INSERT INTO value VALUES ('c: double', 1.5);
                INSERT INTO value VALUES ('d: text', 'It''s');
                INSERT INTO value VALUES ('e: utf8 blob', CAST('Héllo' AS BLOB));
                INSERT INTO value VALUES ('f: uuid blob', X'69BF8A9CD9F04777BD1193451D84CBCF');
                INSERT INTO value VALUES ('g: binary blob', X'80FF');
                """)
        }
        return fixture
    }

    // MARK: - Formats

    @Test func debugIsTheDefaultFormat() throws {
        let output = try dump(makeValues()) { db, output in
            try db.dumpSQL("SELECT * FROM value ORDER BY name", to: output)
        }
        #expect(output == """
            a: null|
            b: integer|-12
            c: double|1.5
            d: text|It's
            e: utf8 blob|Héllo
            f: uuid blob|69BF8A9C-D9F0-4777-BD11-93451D84CBCF
            g: binary blob|X'80FF'

            """)
    }

    @Test func debugAndListHaveAHeaderASeparatorAndANullValue() throws {
        let fixture = try makeLeague()
        for format in [AnyFormat(.debug(header: true, separator: " - ", nullValue: "NULL")),
                       AnyFormat(.list(header: true, separator: " - ", nullValue: "NULL"))] {
            let output = try dump(fixture) { db, output in
                try db.dumpSQL("SELECT * FROM player ORDER BY id", format: format, to: output)
            }
            #expect(output == """
                id - name - teamId
                1 - Arthur - RED
                2 - Barbara - BLU
                3 - Craig - NULL

                """)
        }
    }

    @Test func listPrintsBlobsAsText() throws {
        let output = try dump(makeValues()) { db, output in
            try db.dumpSQL("SELECT value FROM value WHERE name IN ('e: utf8 blob', 'g: binary blob') ORDER BY name",
                           format: .list(), to: output)
        }
        #expect(output == "Héllo\n\u{FFFD}\u{FFFD}\n")
    }

    @Test func quoteWritesSQLLiterals() throws {
        let output = try dump(makeValues()) { db, output in
            try db.dumpSQL("SELECT * FROM value ORDER BY name", format: .quote(header: true), to: output)
        }
        #expect(output == """
            'name','value'
            'a: null',NULL
            'b: integer',-12
            'c: double',1.5
            'd: text','It''s'
            'e: utf8 blob',X'48C3A96C6C6F'
            'f: uuid blob',X'69BF8A9CD9F04777BD1193451D84CBCF'
            'g: binary blob',X'80FF'

            """)
    }

    @Test func lineAlignsTheColumnNamesAndSeparatesRowsAndStatements() throws {
        let output = try dump(makeLeague()) { db, output in
            try db.dumpSQL("""
                SELECT id, teamId FROM player WHERE id <= 2 ORDER BY id;
                SELECT name FROM team WHERE 0;
                SELECT name FROM team ORDER BY name;
                """, format: .line(nullValue: "NULL"), to: output)
        }
        #expect(output == """
                id = 1
            teamId = RED

                id = 2
            teamId = BLU

            name = Blue

            name = Red

            """)
    }

    @Test func jsonWritesOneArrayPerStatement() throws {
        let output = try dump(makeValues()) { db, output in
            try db.dumpSQL("""
                SELECT * FROM value ORDER BY name;
                SELECT 1 WHERE 0;
                CREATE TABLE empty(a);
                """, format: .json(), to: output)
        }
        #expect(output == """
            [{"name":"a: null","value":null},
            {"name":"b: integer","value":-12},
            {"name":"c: double","value":1.5},
            {"name":"d: text","value":"It's"},
            {"name":"e: utf8 blob","value":"SMOpbGxv"},
            {"name":"f: uuid blob","value":"ab+KnNnwR3e9EZNFHYTLzw=="},
            {"name":"g: binary blob","value":"gP8="}]
            []

            """)
    }

    @Test func jsonPrettyPrintsWithItsEncoder() throws {
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting = .prettyPrinted
        let output = try dump(makeLeague()) { db, output in
            try db.dumpSQL("SELECT id, name FROM team ORDER BY id", format: .json(encoder: encoder), to: output)
        }
        #expect(output == """
            [
              {
                "id":"BLU",
                "name":"Blue"
              },
              {
                "id":"RED",
                "name":"Red"
              }
            ]

            """)
    }

    @Test func aCustomFormatGetsEachRowThenTheEndOfEachStatement() throws {
        struct CountFormat: DumpFormat {
            var count = 0
            mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
                count += 1
            }
            mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
                stream.write("\(statement.columnNames.joined(separator: ",")): \(count)\n")
            }
        }
        let output = try dump(makeLeague()) { db, output in
            try db.dumpSQL("SELECT id FROM player; SELECT name FROM team", format: CountFormat(), to: output)
        }
        #expect(output == "id: 3\nname: 2\n")
    }

    // MARK: - SQL, requests, tables

    @Test func theStatementsBeforeAFailingOneArePrinted() throws {
        let output = DumpText()
        let fixture = try makeLeague()
        #expect(throws: DatabaseError.self) {
            try fixture.writer.read { db in
                try db.dumpSQL("SELECT name FROM team ORDER BY name; SELECT * FROM missing", to: output)
            }
        }
        #expect(output.text == "Blue\nRed\n")
    }

    @Test func aRequestIsPrintedWithItsPrefetchedAssociationsAfterTheirKey() throws {
        let request = Team.orderByPrimaryKey().including(all: Team.players.orderByPrimaryKey())
        let output = try dump(makeLeague()) { db, output in
            try db.dumpRequest(request, to: output)
        }
        // The pivot column of the prefetched rows (`grdb_teamId`) is hidden.
        #expect(output == """
            BLU|Blue
            RED|Red

            players
            1|Arthur|RED
            2|Barbara|BLU

            """)
    }

    @Test func aRequestWithAJoinPrintsTheColumnsOfBothTables() throws {
        let request = Player.orderByPrimaryKey().including(required: Player.team)
        let output = try dump(makeLeague()) { db, output in
            try db.dumpRequest(request, format: .quote(), to: output)
        }
        #expect(output == """
            1,'Arthur','RED','RED','Red'
            2,'Barbara','BLU','BLU','Blue'

            """)
    }

    @Test func tablesAreSortedByPrimaryKeyAndNamedWhenSeveral() throws {
        let fixture = try makeLeague()
        let one = try dump(fixture) { db, output in try db.dumpTables(["team"], to: output) }
        #expect(one == "BLU|Blue\nRED|Red\n")
        let named = try dump(fixture) { db, output in try db.dumpTables(["team"], tableHeader: .always, to: output) }
        #expect(named == "team\nBLU|Blue\nRED|Red\n")
        let two = try dump(fixture) { db, output in try db.dumpTables(["team", "player"], to: output) }
        #expect(two == """
            team
            BLU|Blue
            RED|Red

            player
            1|Arthur|RED
            2|Barbara|BLU
            3|Craig|

            """)
        let none = try dump(fixture) { db, output in try db.dumpTables([], to: output) }
        #expect(none == "")
    }

    @Test func viewsKeepTheirOrderUnlessAStableOrderIsAsked() throws {
        let fixture = try makeLeague()
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE VIEW playerName AS SELECT name FROM player ORDER BY id DESC")
        }
        let ownOrder = try dump(fixture) { db, output in try db.dumpTables(["playerName"], to: output) }
        #expect(ownOrder == "Craig\nBarbara\nArthur\n")
        let stable = try dump(fixture) { db, output in
            try db.dumpTables(["playerName"], stableOrder: true, to: output)
        }
        #expect(stable == "Arthur\nBarbara\nCraig\n")
    }

    // MARK: - Schema and content

    @Test func contentIsTheSchemaThenEachTable() throws {
        let output = try dump(makeLeague()) { db, output in try db.dumpContent(format: .quote(), to: output) }
        #expect(output == """
            sqlite_master
            CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "teamId" TEXT REFERENCES "team"("id"));
            CREATE INDEX "player_on_teamId" ON "player"("teamId");
            CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL);

            player
            1,'Arthur','RED'
            2,'Barbara','BLU'
            3,'Craig',NULL

            team
            'BLU','Blue'
            'RED','Red'

            """)
    }

    @Test func theSchemaGroupsObjectsByTableWithoutCase() throws {
        let output = try dump(DatabaseFixture(.queue)) { db, output in
            try db.execute(sql: """
                CREATE TABLE b(name);
                CREATE TABLE A(name);
                CREATE VIEW v AS SELECT name FROM b;
                CREATE TRIGGER b_update UPDATE OF name ON b BEGIN DELETE FROM A; END;
                CREATE INDEX b_name ON b(name);
                """)
            try db.dumpSchema(to: output)
        }
        #expect(output == """
            sqlite_master
            CREATE TABLE A(name);
            CREATE TABLE b(name);
            CREATE INDEX b_name ON b(name);
            CREATE TRIGGER b_update UPDATE OF name ON b BEGIN DELETE FROM A; END;
            CREATE VIEW v AS SELECT name FROM b;

            """)
    }

    @Test func theMigrationsTableIsNotPrinted() throws {
        let fixture = try DatabaseFixture(.queue)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in try db.execute(sql: "CREATE TABLE t(a)") }
        try migrator.migrate(fixture.writer)
        let output = try dump(fixture) { db, output in try db.dumpContent(to: output) }
        #expect(output == "sqlite_master\nCREATE TABLE t(a);\n\nt\n")
    }

    @Test func theShadowTablesOfVirtualTablesAreNotPrinted() throws {
        let output = try dump(DatabaseFixture(.queue)) { db, output in
            try db.create(table: "document") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO document VALUES (1, 'Hello world!')")
            try db.create(virtualTable: "document_ft", using: FTS4()) { t in
                t.synchronize(withTable: "document")
                t.column("body")
            }
            try db.create(virtualTable: "note", using: FTS3()) { t in t.column("text") }
            try db.execute(sql: "INSERT INTO note VALUES ('Hi')")
            try db.execute(sql: "CREATE VIRTUAL TABLE box USING rtree(id, minX, maxX)")
            try db.execute(sql: "INSERT INTO box VALUES (1, 0, 2.5)")
            try db.dumpContent(to: output)
        }
        #expect(output == """
            sqlite_master
            CREATE VIRTUAL TABLE box USING rtree(id, minX, maxX);
            CREATE TABLE "document" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "body");
            CREATE TRIGGER "__document_ft_ai" AFTER INSERT ON "document" BEGIN
                INSERT INTO "document_ft"("docid", "body") VALUES(new."id", new."body");
            END;
            CREATE TRIGGER "__document_ft_au" AFTER UPDATE ON "document" BEGIN
                INSERT INTO "document_ft"("docid", "body") VALUES(new."id", new."body");
            END;
            CREATE TRIGGER "__document_ft_bd" BEFORE DELETE ON "document" BEGIN
                DELETE FROM "document_ft" WHERE docid=old."id";
            END;
            CREATE TRIGGER "__document_ft_bu" BEFORE UPDATE ON "document" BEGIN
                DELETE FROM "document_ft" WHERE docid=old."id";
            END;
            CREATE VIRTUAL TABLE "document_ft" USING fts4(body, content="document");
            CREATE VIRTUAL TABLE "note" USING fts3(text);

            box
            1|0.0|2.5

            document
            1|Hello world!

            document_ft
            Hello world!

            note
            Hi

            """)
    }

    // MARK: - Readers

    @Test(arguments: DatabaseKind.allCases)
    func readersDumpWithOneOfTheirConnections(_ kind: DatabaseKind) throws {
        let fixture = try makeLeague(kind)
        let output = DumpText()
        try fixture.writer.dumpSQL("SELECT name FROM team ORDER BY name", to: output)
        try fixture.writer.dumpRequest(Team.orderByPrimaryKey(), format: .list(), to: output)
        try fixture.writer.dumpTables(["team"], format: .quote(), to: output)
        try fixture.writer.dumpSchema(to: output)
        #expect(output.text == """
            Blue
            Red
            BLU|Blue
            RED|Red
            'BLU','Blue'
            'RED','Red'
            sqlite_master
            CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "teamId" TEXT REFERENCES "team"("id"));
            CREATE INDEX "player_on_teamId" ON "player"("teamId");
            CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL);

            """)
        let content = DumpText()
        try fixture.writer.dumpContent(format: .list(), to: content)
        #expect(content.text.hasSuffix("team\nBLU|Blue\nRED|Red\n"))
    }
}

/// Any dump format, so that tests can loop over formats of several types.
private struct AnyFormat: DumpFormat {
    var base: any DumpFormat

    init(_ base: some DumpFormat) {
        self.base = base
    }

    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        try base.writeRow(db, statement: statement, to: &stream)
    }

    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        base.finalize(db, statement: statement, to: &stream)
    }
}
