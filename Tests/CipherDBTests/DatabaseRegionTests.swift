import CipherDB
import Testing

/// Regions built by hand, combined, and read from statements.
@Suite struct DatabaseRegionTests {
    @Test func regionsOfColumnsAndRowsDescribeThemselves() {
        #expect(DatabaseRegion(table: "Player", columns: ["Score", "name"]).description == "player(name,score)")
        #expect(DatabaseRegion(table: "player", rowIds: [2, 1]).description == "player(*)[1,2]")
        #expect(DatabaseRegion(table: "player", columns: ["a"]) == DatabaseRegion(table: "PLAYER", columns: ["A"]))
        #expect(DatabaseRegion(table: "player", rowIds: [1]) != DatabaseRegion(table: "player", rowIds: [2]))
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
}
