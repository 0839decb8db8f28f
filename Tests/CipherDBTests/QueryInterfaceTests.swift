import CipherDB
import Foundation
import Testing

@Suite struct QueryInterfaceTests {
    struct Item: Codable, FetchableRecord, PersistableRecord, Equatable, Identifiable {
        var id: Int64
        var name: String?
        var score: Int
    }

    /// A queue with items 1: "alpha" 10, 2: "Beta" 20, 3: NULL 30, 4: "gamma" 40.
    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "item") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("score", .integer).notNull()
            }
            for item in [Item(id: 1, name: "alpha", score: 10), Item(id: 2, name: "Beta", score: 20),
                         Item(id: 3, name: nil, score: 30), Item(id: 4, name: "gamma", score: 40)] {
                try item.insert(db)
            }
        }
        return dbQueue
    }

    /// The SQL and arguments of a request, and the ids it fetches.
    func check(_ request: QueryInterfaceRequest<Item>, sql expectedSQL: String, arguments: StatementArguments = [],
               ids expectedIDs: [Int64], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db) throws in
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == expectedSQL, sourceLocation: sourceLocation)
            #expect(statement.arguments == arguments, sourceLocation: sourceLocation)
            #expect(try request.fetchAll(db).map(\.id) == expectedIDs, sourceLocation: sourceLocation)
        }
    }

    static let name = Column("name")
    static let score = Column("score")

    @Test func comparisonOperators() throws {
        try check(Item.filter(Self.score == 20), sql: #"SELECT * FROM "item" WHERE "score" = ?"#, arguments: [20], ids: [2])
        try check(Item.filter(Self.score != 20).order(Column("id")),
                  sql: #"SELECT * FROM "item" WHERE "score" <> ? ORDER BY "id""#, arguments: [20], ids: [1, 3, 4])
        try check(Item.filter(Self.score < 20), sql: #"SELECT * FROM "item" WHERE "score" < ?"#, arguments: [20], ids: [1])
        try check(Item.filter(Self.score <= 20), sql: #"SELECT * FROM "item" WHERE "score" <= ?"#, arguments: [20], ids: [1, 2])
        try check(Item.filter(Self.score > 30), sql: #"SELECT * FROM "item" WHERE "score" > ?"#, arguments: [30], ids: [4])
        try check(Item.filter(Self.score >= 30), sql: #"SELECT * FROM "item" WHERE "score" >= ?"#, arguments: [30], ids: [3, 4])
        try check(Item.filter(30 < Self.score), sql: #"SELECT * FROM "item" WHERE ? < "score""#, arguments: [30], ids: [4])
    }

    @Test func nilComparisonsUseIsNull() throws {
        try check(Item.filter(Self.name == nil), sql: #"SELECT * FROM "item" WHERE "name" IS NULL"#, ids: [3])
        try check(Item.filter(Self.name != nil), sql: #"SELECT * FROM "item" WHERE "name" IS NOT NULL"#, ids: [1, 2, 4])
        let missing: String? = nil
        try check(Item.filter(Self.name == missing), sql: #"SELECT * FROM "item" WHERE "name" IS NULL"#, ids: [3])
    }

    @Test func logicalOperators() throws {
        try check(Item.filter(Self.score > 10 && Self.score < 40),
                  sql: #"SELECT * FROM "item" WHERE ("score" > ?) AND ("score" < ?)"#, arguments: [10, 40], ids: [2, 3])
        try check(Item.filter(Self.score == 10 || Self.score == 40),
                  sql: #"SELECT * FROM "item" WHERE ("score" = ?) OR ("score" = ?)"#, arguments: [10, 40], ids: [1, 4])
        try check(Item.filter(!(Self.score == 10)),
                  sql: #"SELECT * FROM "item" WHERE "score" <> ?"#, arguments: [10], ids: [2, 3, 4])
        // Chained filters are joined with AND.
        try check(Item.filter(Self.score > 10).filter(Self.name != nil),
                  sql: #"SELECT * FROM "item" WHERE ("score" > ?) AND ("name" IS NOT NULL)"#, arguments: [10], ids: [2, 4])
    }

    @Test func arithmeticOperators() throws {
        try check(Item.filter(Self.score + 5 == 15), sql: #"SELECT * FROM "item" WHERE ("score" + ?) = ?"#, arguments: [5, 15], ids: [1])
        try check(Item.filter(Self.score - 5 == 15), sql: #"SELECT * FROM "item" WHERE ("score" - ?) = ?"#, arguments: [5, 15], ids: [2])
        try check(Item.filter(Self.score * 2 == 60), sql: #"SELECT * FROM "item" WHERE ("score" * ?) = ?"#, arguments: [2, 60], ids: [3])
        try check(Item.filter(Self.score / 4 == 10), sql: #"SELECT * FROM "item" WHERE ("score" / ?) = ?"#, arguments: [4, 10], ids: [4])
        try check(Item.filter(-Self.score == -10), sql: #"SELECT * FROM "item" WHERE (-"score") = ?"#, arguments: [-10], ids: [1])
    }

    @Test func likeCollatingAndFunctions() throws {
        try check(Item.filter(Self.name.like("%a")), sql: #"SELECT * FROM "item" WHERE "name" LIKE ?"#, arguments: ["%a"], ids: [1, 2, 4])
        try check(Item.filter(Self.name.collating(.nocase) == "BETA"),
                  sql: #"SELECT * FROM "item" WHERE "name" = ? COLLATE NOCASE"#, arguments: ["BETA"], ids: [2])
        try check(Item.filter(length(Self.name) == 4), sql: #"SELECT * FROM "item" WHERE LENGTH("name") = ?"#, arguments: [4], ids: [2])
        try check(Item.filter(Self.name.lowercased == "beta"), sql: #"SELECT * FROM "item" WHERE swiftLowercaseString("name") = ?"#, arguments: ["beta"], ids: [2])
        try check(Item.filter(Self.name.uppercased == "GAMMA"), sql: #"SELECT * FROM "item" WHERE swiftUppercaseString("name") = ?"#, arguments: ["GAMMA"], ids: [4])
        try check(Item.filter(abs(Self.score - 25) == 5), sql: #"SELECT * FROM "item" WHERE ABS("score" - ?) = ?"#, arguments: [25, 5], ids: [2, 3])
        try check(Item.filter((Self.name ?? "none") == "none"), sql: #"SELECT * FROM "item" WHERE IFNULL("name", ?) = ?"#, arguments: ["none", "none"], ids: [3])
    }

    @Test func collectionsAndRanges() throws {
        try check(Item.filter([1, 3].contains(Column("id"))), sql: #"SELECT * FROM "item" WHERE "id" IN (?, ?)"#, arguments: [1, 3], ids: [1, 3])
        try check(Item.filter(![1, 3].contains(Column("id"))), sql: #"SELECT * FROM "item" WHERE "id" NOT IN (?, ?)"#, arguments: [1, 3], ids: [2, 4])
        try check(Item.filter((20...30).contains(Self.score)), sql: #"SELECT * FROM "item" WHERE "score" BETWEEN ? AND ?"#, arguments: [20, 30], ids: [2, 3])
        try check(Item.filter((20..<30).contains(Self.score)), sql: #"SELECT * FROM "item" WHERE ("score" >= ?) AND ("score" < ?)"#, arguments: [20, 30], ids: [2])
        try check(Item.filter([Int]().contains(Column("id"))), sql: #"SELECT * FROM "item" WHERE ?"#, arguments: [false], ids: [])
        try check(Item.filter([3].contains(Column("id"))), sql: #"SELECT * FROM "item" WHERE "id" = ?"#, arguments: [3], ids: [3])
    }

    /// The SQL that `fetchOne` runs for `request`.
    func fetchOneSQL(_ request: QueryInterfaceRequest<Item>) throws -> String? {
        let request = request.asRequest(of: Row.self)
        let dbQueue = try makeDatabase()
        let traced = TraceLog()
        try dbQueue.read { (db) throws in
            db.trace { traced.append($0.description) }
            _ = try request.fetchOne(db)
        }
        return traced.lines.first { $0.contains(#"FROM "item""#) }
    }

    @Test func fetchOneAddsLimitOneUnlessTheQueryReturnsOneRowAtMost() throws {
        #expect(try fetchOneSQL(Item.filter(Self.name == "alpha")) == #"SELECT * FROM "item" WHERE "name" = ? LIMIT 1"#)
        #expect(try fetchOneSQL(Item.filter(key: 2)) == #"SELECT * FROM "item" WHERE "id" = ?"#)
        #expect(try fetchOneSQL(Item.filter(Column("id") == 2 && Self.score > 0))
            == #"SELECT * FROM "item" WHERE ("id" = ?) AND ("score" > ?)"#)
        #expect(try fetchOneSQL(Item.filter(Column("rowid") == 2)) == #"SELECT * FROM "item" WHERE "rowid" = ?"#)
        #expect(try fetchOneSQL(Item.filter(Column("id") == 1 || Column("id") == 2))
            == #"SELECT * FROM "item" WHERE ("id" = ?) OR ("id" = ?) LIMIT 1"#)
        #expect(try fetchOneSQL(Item.select(max(Self.score))) == #"SELECT MAX("score") FROM "item""#)
        #expect(try fetchOneSQL(Item.select(max(Self.score)).group(Self.name))
            == #"SELECT MAX("score") FROM "item" GROUP BY "name" LIMIT 1"#)
        #expect(try fetchOneSQL(Item.order(Self.score).limit(2, offset: 1))
            == #"SELECT * FROM "item" ORDER BY "score" LIMIT 2 OFFSET 1"#)
    }

    @Test func stableOrderAppendsThePrimaryKeyAndReversesWithTheRest() throws {
        try check(Item.all().withStableOrder(), sql: #"SELECT * FROM "item" ORDER BY "id""#, ids: [1, 2, 3, 4])
        try check(Item.order(Self.score.desc).withStableOrder(),
                  sql: #"SELECT * FROM "item" ORDER BY "score" DESC, "id""#, ids: [4, 3, 2, 1])
        try check(Item.order(Self.score).reversed().withStableOrder(),
                  sql: #"SELECT * FROM "item" ORDER BY "score" DESC, "id" DESC"#, ids: [4, 3, 2, 1])
        try check(Item.order(Self.score).withStableOrder().reversed(),
                  sql: #"SELECT * FROM "item" ORDER BY "score" DESC, "id" DESC"#, ids: [4, 3, 2, 1])
    }

    @Test func stableOrderOfAViewWithoutPrimaryKeySortsByEverySelectedColumn() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE VIEW ranking AS SELECT score / 20 AS tier, name FROM item ORDER BY id DESC")
            let request = Table("ranking").all().withStableOrder()
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT * FROM "ranking" ORDER BY 1, 2"#)
            let tiers = Table("ranking").select(Column("tier"), as: Int.self).withStableOrder()
            #expect(try tiers.makePreparedRequest(db).statement.sql == #"SELECT "tier" FROM "ranking" ORDER BY 1"#)
            #expect(try tiers.fetchAll(db) == [0, 1, 1, 2])
            #expect(try Row.fetchAll(db, request).map { $0["name"] as String? } == ["alpha", nil, "Beta", "gamma"])
        }
    }

    @Test func castCoalesceAndScalarMinMax() throws {
        try check(Item.filter(cast(Self.score, as: .text) == "20"),
                  sql: #"SELECT * FROM "item" WHERE CAST("score" AS TEXT) = ?"#, arguments: ["20"], ids: [2])
        try check(Item.filter(coalesce([Self.name, Column("id")]) == "3"),
                  sql: #"SELECT * FROM "item" WHERE COALESCE("name", "id") = ?"#, arguments: ["3"], ids: [])
        try check(Item.filter(coalesce([Self.name]) == "alpha"),
                  sql: #"SELECT * FROM "item" WHERE "name" = ?"#, arguments: ["alpha"], ids: [1])
        try check(Item.filter(max(Self.score, 25) == 25),
                  sql: #"SELECT * FROM "item" WHERE MAX("score", ?) = ?"#, arguments: [25, 25], ids: [1, 2])
        try check(Item.filter(min(Self.score, Column("id") * 10) == Self.score),
                  sql: #"SELECT * FROM "item" WHERE MIN("score", "id" * ?) = "score""#, arguments: [10], ids: [1, 2, 3, 4])
    }

    @Test func orderingsIncludingEmulatedNullsPositions() throws {
        try check(Item.order(Self.name), sql: #"SELECT * FROM "item" ORDER BY "name""#, ids: [3, 2, 1, 4])
        try check(Item.order(Self.name.desc), sql: #"SELECT * FROM "item" ORDER BY "name" DESC"#, ids: [4, 1, 2, 3])
        try check(Item.order(Self.name.ascNullsLast), sql: #"SELECT * FROM "item" ORDER BY ("name") IS NULL, "name" ASC"#, ids: [2, 1, 4, 3])
        try check(Item.order(Self.name.descNullsFirst), sql: #"SELECT * FROM "item" ORDER BY ("name") IS NULL DESC, "name" DESC"#, ids: [3, 4, 1, 2])
        try check(Item.order(Self.name.collating(.localizedCaseInsensitiveCompare)).filter(Self.name != nil),
                  sql: #"SELECT * FROM "item" WHERE "name" IS NOT NULL ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#, ids: [1, 2, 4])
        try check(Item.order(Self.score).reversed(), sql: #"SELECT * FROM "item" ORDER BY "score" DESC"#, ids: [4, 3, 2, 1])
        // Without ordering, reversed() changes nothing, as in GRDB.
        try check(Item.all().reversed(), sql: #"SELECT * FROM "item""#, ids: [1, 2, 3, 4])
        try check(Item.order(Self.score.desc).order(Self.score), sql: #"SELECT * FROM "item" ORDER BY "score""#, ids: [1, 2, 3, 4])
        try check(Item.order(sql: "score DESC"), sql: #"SELECT * FROM "item" ORDER BY score DESC"#, ids: [4, 3, 2, 1])
    }

    @Test func limitsSelectionsAndEscapes() throws {
        try check(Item.order(Self.score).limit(2, offset: 1),
                  sql: #"SELECT * FROM "item" ORDER BY "score" LIMIT 2 OFFSET 1"#, ids: [2, 3])
        try check(Item.filter(sql: "score > ?", arguments: [25]), sql: #"SELECT * FROM "item" WHERE score > ?"#, arguments: [25], ids: [3, 4])
        try check(Item.filter(key: 2), sql: #"SELECT * FROM "item" WHERE "id" = ?"#, arguments: [2], ids: [2])
        try check(Item.filter(keys: [1, 4]), sql: #"SELECT * FROM "item" WHERE "id" IN (?, ?)"#, arguments: [1, 4], ids: [1, 4])
        try check(Item.filter(id: 3), sql: #"SELECT * FROM "item" WHERE "id" = ?"#, arguments: [3], ids: [3])
        try check(Item.none(), sql: #"SELECT * FROM "item" WHERE ?"#, arguments: [false], ids: [])
    }

    @Test func selectionsAsValuesAndAggregates() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db) throws in
            #expect(try Item.select(Self.name, as: String.self).filter(Self.name != nil).order(Self.name).fetchAll(db) == ["Beta", "alpha", "gamma"])
            #expect(try Item.select(max(Self.score), as: Int.self).fetchOne(db) == 40)
            #expect(try Item.select(min(Self.score), as: Int.self).fetchOne(db) == 10)
            #expect(try Item.select(sum(Self.score), as: Int.self).fetchOne(db) == 100)
            #expect(try Item.select(average(Self.score), as: Double.self).fetchOne(db) == 25)
            #expect(try Item.select(count(Self.name), as: Int.self).fetchOne(db) == 3)
            #expect(try Item.select(count(distinct: Self.score / 20), as: Int.self).fetchOne(db) == 3)
            let rows = try Item.select(Column("id"), (Self.score * 2).forKey("double")).filter(key: 2).asRequest(of: Row.self).fetchAll(db)
            #expect(rows == [["id": 2, "double": 40]])
            let grouped = try Item
                .select(Self.score / 20, CountAll())
                .group(Self.score / 20)
                .having(CountAll() > 1)
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(grouped.map { $0[1] as Int } == [2])
            #expect(try Item.select(Column("score") / 20, as: Int.self).distinct().fetchCount(db) == 3)
        }
    }

    @Test func fetchCountBuildsTheCheapestQuery() throws {
        let dbQueue = try makeDatabase()
        let traced = TraceLog()
        try dbQueue.read { (db) throws in
            db.trace { traced.append($0.description) }
            #expect(try Item.filter(Self.score > 10).order(Self.name).fetchCount(db) == 3)
            #expect(try Item.limit(2).fetchCount(db) == 2)
            #expect(try Item.select(Self.score / 20).distinct().fetchCount(db) == 3)
            #expect(try Item.select((Self.score / 20).forKey("half")).distinct().fetchCount(db) == 3)
            #expect(try Item.all().distinct().fetchCount(db) == 4)
            #expect(try Item.select(Self.name, Self.score).fetchCount(db) == 4)
            #expect(try Item.select(Self.name, Self.score).distinct().fetchCount(db) == 4)
            #expect(try Item.select(AllColumns(), (Self.score > 15).forKey("high")).filter(Column("high")).fetchCount(db) == 3)
            #expect(try Item.filter(Self.score > 35).isEmpty(db) == false)
            #expect(try Item.filter(Self.score > 45).isEmpty(db) == true)
        }
        // As GRDB: COUNT(DISTINCT …) for one distinct value; a subquery for
        // distinct rows, limits, and aliases that other clauses may use.
        #expect(traced.lines.filter { $0.hasPrefix("SELECT") } == [
            #"SELECT COUNT(*) FROM "item" WHERE "score" > ?"#,
            #"SELECT COUNT(*) FROM (SELECT * FROM "item" LIMIT 2)"#,
            #"SELECT COUNT(DISTINCT "score" / ?) FROM "item""#,
            #"SELECT COUNT(DISTINCT "score" / ?) FROM "item""#,
            #"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "item")"#,
            #"SELECT COUNT(*) FROM "item""#,
            #"SELECT COUNT(*) FROM (SELECT DISTINCT "name", "score" FROM "item")"#,
            #"SELECT COUNT(*) FROM (SELECT *, "score" > ? AS "high" FROM "item" WHERE "high")"#,
            #"SELECT EXISTS (SELECT * FROM "item" WHERE "score" > ?)"#,
            #"SELECT EXISTS (SELECT * FROM "item" WHERE "score" > ?)"#,
        ])
    }

    @Test func deleteAllAndUpdateAllOnRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            #expect(try Item.filter(Self.score < 20).deleteAll(db) == 1)
            #expect(try Item.order(Self.score.desc).limit(1).deleteAll(db) == 1) // deletes 4
            #expect(try Item.fetchAll(db).map(\.id) == [2, 3])
            #expect(try Item.updateAll(db, Self.score.set(to: 0)) == 2)
            #expect(try Item.filter(key: 2).updateAll(db, Self.score += 5, Self.name.set(to: "b")) == 1)
            #expect(try Item.fetchOne(db, key: 2) == Item(id: 2, name: "b", score: 5))
            #expect(try Item.order(sql: "RANDOM()").limit(1).deleteAll(db) == 1)
            #expect(try Item.fetchCount(db) == 1)
        }
    }

    @Test func sqlRequestsFromLiterals() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db) throws in
            let minimum = 25
            let request: SQLRequest<Item> = "SELECT * FROM item WHERE score > \(minimum) ORDER BY id"
            #expect(try request.fetchAll(db).map(\.id) == [3, 4])
            #expect(try request.fetchCount(db) == 2)
            let names = SQLRequest<String>(sql: "SELECT name FROM item WHERE name IS NOT NULL ORDER BY id")
            #expect(try names.fetchAll(db) == ["alpha", "Beta", "gamma"])
            let interpolated: SQLRequest<Row> = "SELECT \(Self.score) FROM \(Item.self) WHERE \(Column("id")) = \(1)"
            #expect(try interpolated.makePreparedRequest(db).statement.sql == #"SELECT "score" FROM "item" WHERE "id" = ?"#)
            #expect(try interpolated.fetchOne(db)?[0] as Int? == 10)
        }
    }
}
