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

    @Test(arguments: DatabaseKind.allCases)
    func deleteAndUpdateDeclareTheExpressionsTheyUse(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.write { (db) throws in
            let bestScore = CommonTableExpression(named: "bestScore", sql: "SELECT MAX(score) FROM player")
            let log = TraceLog()
            db.trace { log.append($0.expandedDescription) }
            try Player.with(bestScore).filter(bestScore.contains(Column("score"))).updateAll(db, Column("score").set(to: 0))
            #expect(log.lines.last == #"""
                WITH "bestScore" AS (SELECT MAX(score) FROM player) \#
                UPDATE "player" SET "score" = 0 WHERE "score" IN "bestScore"
                """#)
            #expect(try Player.order(Column("id")).fetchAll(db).map(\.score) == [100, 0, 0])
            let low = CommonTableExpression(named: "low", sql: "SELECT 100")
            #expect(try Player.with(low).filter(low.contains(Column("score"))).deleteAll(db) == 1)
            #expect(log.lines.last == #"WITH "low" AS (SELECT 100) DELETE FROM "player" WHERE "score" IN "low""#)
            #expect(try Player.fetchCount(db) == 2)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anIncludedExpressionIsAScopeWithTheColumnsItSelects(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            // `other` selects from `ranked`, declared after it: its columns
            // are read with every expression of the request declared.
            let other = CommonTableExpression(named: "other", sql: "SELECT * FROM ranked")
            let ranked = CommonTableExpression(named: "ranked", sql: "SELECT id AS playerId, score * 2 AS doubled FROM player")
            let association = Player.association(to: other) { player, other in other[Column("playerId")] == player[Column("id")] }
            let rows = try Row.fetchAll(db, Player.with(other).with(ranked).including(required: association).order(Column("id")))
            #expect(rows.count == 3)
            #expect(rows[0].unscoped == ["id": 1, "name": "Arthur", "score": 100])
            #expect(rows[0].scopes["other"] == ["playerId": 1, "doubled": 200])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func ofTwoExpressionsWithOneNameTheLastOneAddedWins(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let first = CommonTableExpression(named: "threshold", sql: "SELECT 100")
            let second = CommonTableExpression(named: "threshold", sql: "SELECT 300")
            let request = Player.with(first).with(second).filter(second.contains(Column("score")))
            #expect(try request.fetchCount(db) == 2)
            #expect(try request.makePreparedRequest(db).statement.sql
                == #"WITH "threshold" AS (SELECT 300) SELECT * FROM "player" WHERE "score" IN "threshold""#)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func ofTwoConditionsOfOneAssociationKeyTheLastOneWins(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let others = CommonTableExpression(named: "others", request: Player.all())
            let request = Player.with(others)
                .joining(required: Player.association(to: others) { player, other in other[Column("score")] > player[Column("score")] })
                .joining(required: Player.association(to: others) { player, other in other[Column("id")] == player[Column("id")] })
                .order(Column("id"))
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                WITH "others" AS (SELECT * FROM "player") \#
                SELECT "player".* FROM "player" JOIN "others" ON "others"."id" = "player"."id" ORDER BY "player"."id"
                """#)
            #expect(try request.fetchAll(db).map(\.id) == [1, 2, 3])
        }
    }
}
