import CipherDB
import Testing

@Suite struct SQLSubqueryTests {
    struct Player: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var teamId: Int64?
        var score: Int
    }

    struct Team: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
    }

    /// Teams 1: red, 2: blue, 3: green; players 1 (red, 10), 2 (red, 30),
    /// 3 (blue, 20), 4 (no team, 30).
    func makeDatabase(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "team") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("teamId", .integer).references("team")
                t.column("score", .integer).notNull()
            }
            for (id, name) in [(1, "red"), (2, "blue"), (3, "green")] {
                try Team(id: Int64(id), name: name).insert(db)
            }
            for (id, teamId, score) in [(1, 1, 10), (2, 1, 30), (3, 2, 20)] {
                try Player(id: Int64(id), teamId: Int64(teamId), score: score).insert(db)
            }
            try Player(id: 4, teamId: nil, score: 30).insert(db)
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func aRequestComparedWithAColumnIsAScalarSubquery(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let maximumScore = Player.select(max(Column("score")))
            let request = Player.filter(Column("score") == maximumScore).order(Column("id"))
            #expect(try request.makePreparedRequest(db).statement.sql
                == #"SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player") ORDER BY "id""#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 4])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func containsIsInSubqueryAndItsNegationNotIn(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let teamIds = Player.select(Column("teamId")).filter(Column("score") > 15)
            let request = Team.filter(teamIds.contains(Column("id"))).order(Column("id"))
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                SELECT * FROM "team" WHERE "id" IN (SELECT "teamId" FROM "player" WHERE "score" > ?) ORDER BY "id"
                """#)
            #expect(try request.fetchAll(db).map(\.id) == [1, 2])
            let sqlTeamIds: SQLRequest<Int64> = "SELECT teamId FROM player WHERE teamId IS NOT NULL"
            #expect(try Team.filter(!sqlTeamIds.contains(Column("id"))).fetchAll(db).map(\.id) == [3])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func existsCanReferToTheEnclosingQuery(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let team = TableAlias<Team>()
            let players = Player.filter(Column("teamId") == team[Column("id")])
            let request = Team.aliased(team).filter(!players.exists()).order(Column("id"))
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                SELECT * FROM "team" WHERE NOT EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id") ORDER BY "id"
                """#)
            #expect(try request.fetchAll(db).map(\.name) == ["green"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func subqueryArgumentsComeInTheOrderOfTheSQL(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let strongTeams = Player.select(Column("teamId")).filter(Column("score") >= 20)
            let request = Team.filter(Column("name") != "blue" && strongTeams.contains(Column("id")))
            #expect(try request.makePreparedRequest(db).statement.arguments == ["blue", 20])
            #expect(try request.fetchAll(db).map(\.name) == ["red"])
        }
    }
}
