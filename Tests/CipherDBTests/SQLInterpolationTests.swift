import CipherDB
import Foundation
import Testing

/// What SQL literals accept, and the SQL they generate.
@Suite struct SQLInterpolationTests {
    struct Player: TableRecord {
        enum CodingKeys: String, CodingKey { case id, name }
        static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("name")] }
    }

    func build(_ literal: SQL) throws -> (sql: String, arguments: StatementArguments) {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            return try literal.build(db)
        }
    }

    @Test func valuesAreBoundAsArguments() throws {
        let name = "O'Brien"
        let missing: Int? = nil
        let data = Data([1, 2])
        let built = try build("SELECT \(name), \(42), \(missing), \(data), \(true)")
        #expect(built.sql == "SELECT ?, ?, NULL, ?, ?")
        #expect(built.arguments == [name, 42, data, true])
    }

    @Test func sequencesAreParenthesizedLists() throws {
        let built = try build("SELECT * FROM player WHERE id IN \([1, 2, 3]) OR name IN \([String]())")
        #expect(built.sql == "SELECT * FROM player WHERE id IN (?,?,?) OR name IN (SELECT NULL WHERE NULL)")
        #expect(built.arguments == [1, 2, 3])
    }

    @Test func tablesColumnsAndCodingKeysAreQuotedIdentifiers() throws {
        let built = try build("""
            SELECT \(columnsOf: Player.self), \(Player.CodingKeys.name) FROM \(Player.self) \
            JOIN \(Table("team")) ON \(identifier: "team id") = \(Column("teamId"))
            """)
        #expect(built.sql == #"""
            SELECT "player"."id", "player"."name", "name" FROM "player" JOIN "team" ON "team id" = "teamId"
            """#)
        #expect(try build("SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p").sql
            == #"SELECT "p"."id", "p"."name" FROM player p"#)
    }

    @Test func expressionsOrderingsAndSubqueriesKeepTheirSQL() throws {
        let maximum = Table("player").select(max(Column("score")))
        let built = try build("""
            SELECT \(Column("score") * 2), \(AllColumns()) FROM player \
            WHERE score = (\(maximum)) ORDER BY \(Column("name").desc) COLLATE \(.nocase)
            """)
        #expect(built.sql == #"""
            SELECT "score" * ?, * FROM player WHERE score = (SELECT MAX("score") FROM "player") ORDER BY "name" DESC COLLATE NOCASE
            """#)
        #expect(built.arguments == [2])
    }

    /// A literal that a request selects, filters or orders by belongs to
    /// the request's table: its interpolated columns are qualified, so
    /// that a join does not make them ambiguous.
    @Test func literalsInARequestQualifyTheirColumns() throws {
        struct Team: TableRecord {}
        struct Member: TableRecord {
            static let team = belongsTo(Team.self)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE member (id INTEGER PRIMARY KEY, name TEXT, teamId INTEGER REFERENCES team(id));
                INSERT INTO team VALUES (1, 'Reds');
                INSERT INTO member VALUES (1, 'Arthur', 1);
                """)
            let suffix = SQL(" the ".databaseValue)
            let request = Member
                .select([SQL(Column("name")), suffix, SQL(Column("id"))].joined(separator: " || "))
                .filter(literal: "\(Column("name")) <> ''")
                .order(literal: "\(Column("id"))")
                .joining(required: Member.team)
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT "member"."name" || ? || "member"."id" FROM "member" "#
                + #"JOIN "team" ON "team"."id" = "member"."teamId" WHERE "member"."name" <> '' ORDER BY "member"."id""#)
            #expect(try String.fetchAll(db, request) == ["Arthur the 1"])
        }
    }
}
