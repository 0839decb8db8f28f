import CipherDB
import Foundation
import Testing

/// `deleteAll` and `updateAll` of requests: the SQL they run (with joins,
/// groups, orders and limits), the assignments, and the rows they change.
@Suite struct BatchWriteTests {
    struct Team: TableRecord {
        static let players = hasMany(Player.self)
    }

    struct Player: Codable, FetchableRecord, MutablePersistableRecord {
        static let team = belongsTo(Team.self)
        var id: Int64?
        var teamId: Int64?
        var score: Int
        var bonus: Int

        enum Columns {
            static let score = Column(CodingKeys.score)
            static let bonus = Column(CodingKeys.bonus)
        }
    }

    /// A player whose updates are `UPDATE OR IGNORE` by default.
    struct IgnoringPlayer: Codable, TableRecord, MutablePersistableRecord {
        static let databaseTableName = "player"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .ignore)
        var id: Int64?
    }

    struct Passport: TableRecord {}

    /// Teams 1 and 2 (2 has no player), players 1, 2, 3 of team 1 with
    /// scores 10, 20, 30 and bonus 1, and a logged connection.
    func makeDatabase(_ kind: DatabaseKind, log: TraceLog) throws -> DatabaseFixture {
        var configuration = encryptedConfiguration()
        configuration.prepareDatabase { db in
            db.trace { log.append($0.expandedDescription) }
        }
        let fixture = try DatabaseFixture(kind, configuration: configuration)
        try fixture.writer.write { (db) throws in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
                t.column("score", .integer).notNull().unique()
                t.column("bonus", .integer).notNull()
            }
            try db.create(table: "passport") { t in
                t.column("countryCode", .text).notNull()
                t.column("citizenId", .integer).notNull()
                t.primaryKey(["countryCode", "citizenId"])
            }
            try db.execute(sql: "INSERT INTO team DEFAULT VALUES; INSERT INTO team DEFAULT VALUES")
            for score in [10, 20, 30] {
                var player = Player(teamId: 1, score: score, bonus: 1)
                try player.insert(db)
            }
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func aQueryOfOneTableDeletesWithItsOwnClauses(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            #expect(try Player.select(Column("score")).order(Column("score")).filter(Column("score") > 25).deleteAll(db) == 1)
            #expect(log.lines.last == #"DELETE FROM "player" WHERE "score" > 25"#)
            #expect(try Player.order(Column("score").desc).limit(1).deleteAll(db) == 1)
            #expect(log.lines.last == #"DELETE FROM "player" ORDER BY "score" DESC LIMIT 1"#)
            #expect(try Player.fetchAll(db).map(\.score) == [10])
            #expect(try Player.order(Column("score")).limit(1, offset: 3).reversed().deleteAll(db) == 0)
            #expect(log.lines.last == #"DELETE FROM "player" ORDER BY "score" DESC LIMIT 1 OFFSET 3"#)
            // An unordered request stays unordered when reversed.
            #expect(try Player.limit(5).reversed().deleteAll(db) == 1)
            #expect(log.lines.last == #"DELETE FROM "player" LIMIT 5"#)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func joinsAndGroupsDeleteThroughThePrimaryKey(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            #expect(try Team.having(Team.players.isEmpty).deleteAll(db) == 1)
            #expect(log.lines.last == """
                DELETE FROM "team" WHERE "id" IN (SELECT "team"."id" FROM "team" \
                LEFT JOIN "player" ON "player"."teamId" = "team"."id" \
                GROUP BY "team"."id" HAVING COUNT(DISTINCT "player"."id") = 0)
                """)
            #expect(try Player.aliased(TableAlias(name: "p")).including(required: Player.team).deleteAll(db) == 3)
            #expect(log.lines.last == """
                DELETE FROM "player" WHERE "id" IN (SELECT "p"."id" FROM "player" "p" \
                JOIN "team" ON "team"."id" = "p"."teamId")
                """)
            try Passport.all().groupByPrimaryKey().deleteAll(db)
            #expect(log.lines.last == #"DELETE FROM "passport" WHERE "rowid" IN (SELECT "rowid" FROM "passport" GROUP BY "rowid")"#)
            try Player.all().group(-Column("id")).deleteAll(db)
            #expect(log.lines.last == #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY -"id")"#)
        }
    }

    @Test func groupsThatAreNotUniqueAreErrors() throws {
        let log = TraceLog()
        let fixture = try makeDatabase(.queue, log: log)
        try fixture.writer.write { (db) throws in
            let delete = #expect(throws: DatabaseError.self) { try Player.all().group(Column("teamId")).deleteAll(db) }
            #expect(delete?.message == "can't delete query with GROUP BY clause")
            let update = #expect(throws: DatabaseError.self) {
                try Player.all().group(Column("bonus")).updateAll(db, Column("bonus").set(to: 0))
            }
            #expect(update?.message == "can't update query with GROUP BY clause")
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func assignmentsOfColumns(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            #expect(try Player.updateAll(db) { $0.bonus += $0.score * 2 } == 3)
            #expect(log.lines.last == #"UPDATE "player" SET "bonus" = "bonus" + ("score" * 2)"#)
            try Player.updateAll(db) { [$0.bonus -= 1, $0.score *= -$0.bonus] }
            #expect(log.lines.last == #"UPDATE "player" SET "bonus" = "bonus" - 1, "score" = "score" * (-"bonus")"#)
            try Player.updateAll(db, Player.Columns.bonus &= 6, Player.Columns.bonus |= 1)
            #expect(log.lines.last == #"UPDATE "player" SET "bonus" = "bonus" & 6, "bonus" = "bonus" | 1"#)
            try Player.filter(key: 1).updateAll(db) { [$0.bonus <<= 2, $0.score >>= 1] }
            #expect(log.lines.last == #"UPDATE "player" SET "bonus" = "bonus" << 2, "score" = "score" >> 1 WHERE "id" = 1"#)
            try Player.updateAll(db, Player.Columns.bonus /= 2)
            #expect(log.lines.last == #"UPDATE "player" SET "bonus" = "bonus" / 2"#)
            let count = log.lines.count
            #expect(try Player.updateAll(db, []) == 0)
            #expect(log.lines.count == count)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func joinedUpdatesTargetThePrimaryKey(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            let request = Player.joining(required: Player.team.filter(Column("id") == 1))
            #expect(try request.updateAll(db) { $0.bonus.set(to: 0) } == 3)
            #expect(log.lines.last == """
                UPDATE "player" SET "bonus" = 0 WHERE "id" IN (SELECT "player"."id" FROM "player" \
                JOIN "team" ON ("team"."id" = "player"."teamId") AND ("team"."id" = 1))
                """)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func updatesUseTheConflictPolicyOfTheRecord(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        let fixture = try makeDatabase(kind, log: log)
        try fixture.writer.write { (db) throws in
            // Setting every score to 10 conflicts with the unique index.
            #expect(throws: DatabaseError.self) { try Player.updateAll(db, Column("score").set(to: 10)) }
            #expect(try IgnoringPlayer.updateAll(db, Column("score").set(to: 10)) == 1)
            #expect(log.lines.last == #"UPDATE OR IGNORE "player" SET "score" = 10"#)
            try IgnoringPlayer.updateAll(db, onConflict: .abort, Column("bonus").set(to: 2))
            #expect(log.lines.last == #"UPDATE "player" SET "bonus" = 2"#)
            try Player.all().updateAll(db, onConflict: .replace, Column("bonus").set(to: 3))
            #expect(log.lines.last == #"UPDATE OR REPLACE "player" SET "bonus" = 3"#)
        }
    }

    @Test func rowidsAreSelectable() throws {
        struct Item: TableRecord, FetchableRecord, Decodable {
            static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
            var name: String
            var rowid: Int64
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE item (name TEXT); INSERT INTO item VALUES ('a')")
            let statement = try Item.all().makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT *, "rowid" FROM "item""#)
            #expect(try Item.fetchOne(db)?.rowid == 1)
            #expect(try Item.select(.rowID, as: Int64.self).fetchAll(db) == [1])
        }
    }
}
