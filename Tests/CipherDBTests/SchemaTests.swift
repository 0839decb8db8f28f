import CipherDB
import Foundation
import Testing

@Suite struct SchemaTests {
    func makeSchema(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    teamId INTEGER REFERENCES team(id),
                    name TEXT NOT NULL DEFAULT 'anonymous',
                    score INT);
                CREATE UNIQUE INDEX player_name ON player(name, teamId);
                CREATE TABLE membership (a TEXT, b TEXT, PRIMARY KEY (b, a)) WITHOUT ROWID;
                CREATE TABLE log (message TEXT);
                CREATE TABLE teamPlayer (team INTEGER REFERENCES team, player INTEGER REFERENCES player(id));
                """)
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func tableExistence(_ kind: DatabaseKind) throws {
        let fixture = try makeSchema(kind)
        try fixture.writer.read { (db) throws in
            #expect(try db.tableExists("player"))
            #expect(try db.tableExists("PLAYER"))
            #expect(try !db.tableExists("missing"))
            #expect(try !db.viewExists("player"))
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func columnsAndPrimaryKeys(_ kind: DatabaseKind) throws {
        let fixture = try makeSchema(kind)
        try fixture.writer.read { (db) throws in
            let columns = try db.columns(in: "player")
            #expect(columns.map(\.name) == ["id", "teamId", "name", "score"])
            #expect(columns[2].isNotNull)
            #expect(columns[2].defaultValueSQL == "'anonymous'")
            #expect(columns[3].type == "INT")
            let player = try db.primaryKey("player")
            #expect(player.columns == ["id"])
            #expect(player.rowIDColumn == "id")
            let log = try db.primaryKey("log")
            #expect(log.columns == ["rowid"])
            #expect(log.isRowID)
            let membership = try db.primaryKey("membership")
            #expect(membership.columns == ["b", "a"])
            #expect(!membership.isRowID)
            #expect(throws: DatabaseError.self) { try db.columns(in: "missing") }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func indexesAndForeignKeys(_ kind: DatabaseKind) throws {
        let fixture = try makeSchema(kind)
        try fixture.writer.read { (db) throws in
            let indexes = try db.indexes(on: "player")
            #expect(indexes.map(\.name) == ["player_name"])
            #expect(indexes.first?.columns == ["name", "teamId"])
            #expect(indexes.first?.isUnique == true)
            #expect(indexes.first?.origin == .createIndex)
            let foreignKeys = try db.foreignKeys(on: "teamPlayer")
            #expect(foreignKeys.count == 2)
            #expect(foreignKeys.contains { $0.destinationTable == "team" && $0.originColumns == ["team"] && $0.destinationColumns == ["id"] })
            #expect(foreignKeys.contains { $0.destinationTable == "player" && $0.destinationColumns == ["id"] })
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func foreignKeysAreEnforcedByDefault(_ kind: DatabaseKind) throws {
        let fixture = try makeSchema(kind)
        do {
            try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (teamId, name) VALUES (42, 'x')") }
            Issue.record("expected a foreign key violation")
        } catch let error as DatabaseError {
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func eraseDropsEverything(_ kind: DatabaseKind) throws {
        let fixture = try makeSchema(kind)
        try fixture.writer.erase()
        #expect(try fixture.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") } == 0)
        #expect(try fixture.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_sequence") } == 0)
    }
}
