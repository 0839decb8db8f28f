import CipherDB
import Testing

@Suite struct TableTests {
    struct Player: Codable, FetchableRecord, PersistableRecord, Equatable, Identifiable {
        var id: Int64
        var name: String
        var score: Int
    }

    /// Players 1: Arthur 100, 2: Barbara 200, 3: Craig 300.
    func makeDatabase(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            for (id, name, score) in [(1, "Arthur", 100), (2, "Barbara", 200), (3, "Craig", 300)] {
                try db.execute(sql: "INSERT INTO player VALUES (?, ?, ?)", arguments: [id, name, score])
            }
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func tableOfRowsCountsFiltersAndFetchesRows(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let playerTable = Table("player")
            #expect(try playerTable.fetchCount(db) == 3)
            #expect(try playerTable.filter(Column("score") > 150).fetchCount(db) == 2)
            let rows: [Row] = try playerTable.order(Column("name").desc).fetchAll(db)
            #expect(rows.map { $0["name"] as String } == ["Craig", "Barbara", "Arthur"])
            let request = try playerTable.filter(key: 2).makePreparedRequest(db)
            #expect(request.statement.sql == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(try playerTable.exists(db, key: 3))
            #expect(try !playerTable.exists(db, key: 4))
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func tableOfRecordsFetchesRecords(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let playerTable = Table<Player>("player")
            #expect(try playerTable.filter(id: 2).fetchOne(db) == Player(id: 2, name: "Barbara", score: 200))
            #expect(try playerTable.order(Column("score")).fetchAll(db).map(\.id) == [1, 2, 3])
            #expect(try playerTable.selectID().fetchAll(db) == [1, 2, 3])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func tableOfValuesFetchesTheFirstColumn(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            #expect(try Table<String>("player").select(Column("name")).order(Column("name")).fetchAll(db)
                == ["Arthur", "Barbara", "Craig"])
            #expect(try Table("player").select(max(Column("score")), as: Int.self).fetchOne(db) == 300)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func tableDeletesAndUpdatesRows(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.write { (db) throws in
            let playerTable = Table("player")
            #expect(try playerTable.filter(Column("score") < 150).deleteAll(db) == 1)
            #expect(try playerTable.deleteOne(db, key: 2))
            #expect(try !playerTable.deleteOne(db, key: 2))
            #expect(try playerTable.updateAll(db, Column("score").set(to: 0)) == 1)
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [0])
            #expect(try Table<Player>("player").deleteAll(db, ids: [3]) == 1)
            #expect(try playerTable.fetchCount(db) == 0)
        }
    }

    struct PartialPlayer: TableRecord {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [Column("id"), .allColumns(excluding: ["id", "score"]), Column("score") * 2] }
    }

    @Test func numberOfSelectedColumnsCountsAllColumnsFromTheSchema() throws {
        let fixture = try makeDatabase(.queue)
        try fixture.writer.read { (db) throws in
            #expect(try Player.numberOfSelectedColumns(db) == 3)
            #expect(try PartialPlayer.numberOfSelectedColumns(db) == 3)
        }
    }
}
