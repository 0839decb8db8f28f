import CipherDB
import Testing

@Suite struct CommonTableExpressionTests {
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
    }

    /// Players 1: Arthur 100, 2: Barbara 300, 3: Craig 300.
    func makeDatabase(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
            try Player(id: 2, name: "Barbara", score: 300).insert(db)
            try Player(id: 3, name: "Craig", score: 300).insert(db)
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func anExpressionJoinedOnAConditionFiltersTheRows(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let bestScore = CommonTableExpression(
                named: "bestScore",
                request: Player.select(max(Column("score")).forKey("score")))
            let association = Player.association(to: bestScore) { player, bestScore in
                bestScore[Column("score")] == player[Column("score")]
            }
            let request = Player.with(bestScore).joining(required: association).order(Column("id"))
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                WITH "bestScore" AS (SELECT MAX("score") AS "score" FROM "player") \#
                SELECT "player".* FROM "player" JOIN "bestScore" ON "bestScore"."score" = "player"."score" \#
                ORDER BY "player"."id"
                """#)
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Craig"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aRecursiveExpressionCountsFromItself(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let counter = CommonTableExpression<Int>(
                recursive: true, named: "counter", columns: ["n"],
                sql: "SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 5")
            let request = counter.all().with(counter)
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                WITH RECURSIVE "counter"("n") AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 5) \#
                SELECT * FROM "counter"
                """#)
            #expect(try request.fetchAll(db) == [1, 2, 3, 4, 5])
            let players = Player.with(counter).filter(counter.contains(Column("id")) && Column("score") > 200)
            #expect(try players.fetchAll(db).map(\.id) == [2, 3])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func sqlLiteralsInterpolateTheNameAndDefinition(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let low = CommonTableExpression(named: "low", request: Player.filter(Column("score") < 200))
            let request: SQLRequest<String> = "WITH \(definitionFor: low) SELECT name FROM \(low)"
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                WITH "low" AS (SELECT * FROM "player" WHERE "score" < ?) SELECT name FROM "low"
                """#)
            #expect(try request.fetchAll(db) == ["Arthur"])
        }
    }
}
