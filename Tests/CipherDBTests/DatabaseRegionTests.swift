import CipherDB
import Testing

/// Regions built by hand, combined, and read from statements.
@Suite struct DatabaseRegionTests {
    @Test func regionsOfColumnsAndRowsDescribeThemselves() {
        #expect(DatabaseRegion(table: "player", columns: ["score", "name"]).description == "player(name,score)")
        #expect(DatabaseRegion(table: "player", rowIds: [2, 1]).description == "player(*)[1,2]")
        #expect(DatabaseRegion(table: "player", columns: ["a"]) == DatabaseRegion(table: "PLAYER", columns: ["A"]))
        #expect(DatabaseRegion(table: "player", rowIds: [1]) != DatabaseRegion(table: "player", rowIds: [2]))
    }

    /// Names keep their spelling, as GRDB's regions do, and compare
    /// without case, as SQLite compares them.
    @Test func regionsKeepTheSpellingOfNamesAndCompareThemWithoutCase() throws {
        let region = DatabaseRegion(table: "Player", columns: ["Score", "name"])
        #expect(region.description == "Player(Score,name)")
        #expect(region == DatabaseRegion(table: "PLAYER", columns: ["NAME", "score"]))
        #expect(region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["SCORE"])))
        #expect(!region.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["team"])))
        // The spelling given first stays.
        #expect(region.union(DatabaseRegion(table: "player", columns: ["team"])).description == "Player(Score,name,team)")
        // SQLite folds ASCII letters only: "É" and "é" name two tables.
        #expect(DatabaseRegion(table: "équipe") != DatabaseRegion(table: "Équipe"))

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE Player (ID INTEGER PRIMARY KEY, Name TEXT)")
            // The region of a statement spells names as the schema does.
            #expect(try db.makeStatement(sql: "SELECT name FROM PLAYER").databaseRegion.description == "Player(Name)")
        }
    }

    @Test func intersectionKeepsTheColumnsAndRowsBothRegionsHave() {
        let columns = DatabaseRegion(table: "player", columns: ["name", "score"])
        let rows = DatabaseRegion(table: "player", rowIds: [1, 2])
        #expect(columns.intersection(rows).description == "player(name,score)[1,2]")
        #expect(columns.intersection(DatabaseRegion(table: "player", columns: ["score", "team"])).description == "player(score)")
        #expect(rows.intersection(DatabaseRegion(table: "player", rowIds: [2, 3])).description == "player(*)[2]")
    }

    @Test func intersectionDropsWhatIsNotShared() {
        let player = DatabaseRegion(table: "player", columns: ["name"])
        #expect(player.intersection(DatabaseRegion(table: "team")).isEmpty)
        #expect(player.intersection(DatabaseRegion(table: "player", columns: ["score"])).isEmpty)
        #expect(DatabaseRegion(table: "player", rowIds: [1]).intersection(DatabaseRegion(table: "player", rowIds: [2])).isEmpty)
        #expect(player.intersection(DatabaseRegion()).isEmpty)
    }

    @Test func fullDatabaseIsNeutralForIntersection() {
        let player = DatabaseRegion(table: "player", columns: ["name"])
        #expect(player.intersection(.fullDatabase) == player)
        #expect(DatabaseRegion.fullDatabase.intersection(player) == player)
        #expect(DatabaseRegion.fullDatabase.intersection(.fullDatabase).isFullDatabase)
    }

    @Test(arguments: DatabaseKind.allCases)
    func statementsTellTheRegionTheyRead(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.read { db in
            let statement = try db.makeStatement(sql: "SELECT name FROM player WHERE score > 10")
            #expect(statement.databaseRegion == DatabaseRegion(table: "player", columns: ["name", "score"]))
            #expect(try db.makeStatement(sql: "SELECT COUNT(*) FROM player").databaseRegion.description == "player(*)")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func requestsFilteredByRowidsTrackThoseRowsOnly(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let player = Table("player")
        try fixture.writer.read { (db) throws in
            #expect(try player.filter(key: 1).databaseRegion(db).description == "player(id,name,score)[1]")
            #expect(try player.filter(keys: [1, 2, 3]).databaseRegion(db).description == "player(id,name,score)[1,2,3]")
            #expect(try player.filter(Column("rowid") == 2 || Column("id") == 3).databaseRegion(db).description
                == "player(id,name,score)[2,3]")
            #expect(try player.filter(Column("id") == 2 && Column("score") > 0).databaseRegion(db).description
                == "player(id,name,score)[2]")
            #expect(try player.filter(keys: [1, 2]).filter(key: 3).databaseRegion(db).isEmpty)
            #expect(try player.none().databaseRegion(db).isEmpty)
            // Where SQLite could find rows the values do not tell, the
            // whole table stays tracked.
            #expect(try player.filter(Column("id") == "1").databaseRegion(db).description == "player(id,name,score)")
            #expect(try player.filter(Column("id") == 1 || Column("score") == 1).databaseRegion(db).description
                == "player(id,name,score)")
            #expect(try player.filter(Column("score") == 1).databaseRegion(db).description == "player(id,name,score)")
            // The region of the SQL alone, for a statement prepared from
            // the same SQL without the request.
            #expect(try player.filter(key: 1).databaseRegion(db).description == "player(id,name,score)[1]")
            #expect(try db.cachedStatement(sql: #"SELECT * FROM "player" WHERE "id" = 1"#).databaseRegion.description
                == "player(id,name,score)")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anObservationOfOneRowIgnoresChangesToOtherRows(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try await fixture.writer.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara')")
        }
        let changes = ValueRecorder<Int>()
        let values = ValueRecorder<String?>()
        let observation = ValueObservation
            .trackingConstantRegion { db in try String.fetchOne(db, Table("player").select(Column("name")).filter(key: 1)) }
            .handleEvents(databaseDidChange: { changes.record(1) })
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { values.record(error: $0) } onChange: { values.record($0) }
        try await values.wait { $0 == kind.initialValues("Arthur") }
        try await fixture.writer.write { (db) throws in
            try db.execute(sql: "UPDATE player SET name = 'Barbara2' WHERE id = 2")
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig')")
        }
        try await fixture.writer.write { (db) throws in try db.execute(sql: "UPDATE player SET name = 'Arthur2' WHERE id = 1") }
        try await values.wait { $0 == kind.initialValues("Arthur") + ["Arthur2"] }
        // Only the commit that changed player 1 reached the observation. A
        // pool reports one more change as the writer starts observing, as
        // GRDB does: the one that may have come after its first fetch.
        #expect(changes.values.count == (kind == .pool ? 2 : 1))
        cancellable.cancel()
        #expect(values.errors.isEmpty)
    }
}
