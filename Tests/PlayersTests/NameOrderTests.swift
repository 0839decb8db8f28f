import CipherDB
import Foundation
import Players
import TestSupport
import Testing

/// The order of names (migration `v5-name-order`): a folded key stored
/// beside each name by triggers, and an index that a list by name walks.
@Suite struct NameOrderTests {
    @Test(arguments: Storage.allCases)
    func namesAreOrderedWithoutCaseAccentsOrWidths(_ storage: Storage) throws {
        let appDatabase = try TestDatabase(storage).appDatabase
        for name in ["Zoé", "zeta", "Émile", "Barbara", "Arthur", "anita", "Anita", "ＡＢＣ", "Ædith", "eric", "Éric"] {
            var player = Player(name: name, score: 0)
            try appDatabase.savePlayer(&player)
        }
        let names = try appDatabase.reader.read { db in try Player.all().orderedByName().fetchAll(db).map(\.name) }
        // "Ædith" folds to "ædith", after every ASCII letter; names of one
        // key are ordered by their bytes.
        #expect(names == ["ＡＢＣ", "Anita", "anita", "Arthur", "Barbara", "Émile", "eric", "Éric", "zeta", "Zoé", "Ædith"])
    }

    @Test func theKeyFoldsCaseAccentsAndWidths() {
        #expect(Player.nameOrderKey("Émile") == "emile")
        #expect(Player.nameOrderKey("ZOË") == "zoe")
        #expect(Player.nameOrderKey("ＡＢＣ") == "abc")
        #expect(Player.nameOrderKey("Ольга") == "ольга")
    }

    @Test func anyStatementThatWritesANameStoresItsKey() throws {
        let appDatabase = try AppDatabase.empty()
        let keys = try appDatabase.dbWriter.write { db -> [String?] in
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, 'Émile', 1)", arguments: [UUID().uuidString])
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, 'Zoé', 2)", arguments: [UUID().uuidString])
            try db.execute(sql: "UPDATE player SET name = 'ÅSA' WHERE name = 'Zoé'")
            try db.execute(sql: "UPDATE player SET score = 3")
            return try String?.fetchAll(db, sql: "SELECT nameOrderKey FROM player ORDER BY id")
        }
        #expect(keys == ["emile", "asa"])
    }

    @Test func aListByNameWalksAnIndexAndNoOrderCallsACollation() throws {
        let appDatabase = try AppDatabase.empty()
        let (sql, plan) = try appDatabase.reader.read { db in
            let statements = try [Player.all().orderedByName(), Player.all().orderedByScore()].map { request in
                try request.makePreparedRequest(db, forSingleResult: false).statement
            }
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statements[0].sql).map { $0["detail"] as String }
            return (statements.map(\.sql), plan.joined(separator: "; "))
        }
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        #expect(plan.contains("player_on_nameOrderKey"), "\(plan)")
        for sql in sql {
            #expect(!sql.contains("COLLATE"), "\(sql)")
        }
    }

    @Test func theMigrationStoresTheKeysOfExistingPlayers() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v4-outbox")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, 'Émile', 1), (?, 'anita', 2)",
                           arguments: [UUID().uuidString, UUID().uuidString])
        }
        let appDatabase = try AppDatabase(queue)
        let rows = try appDatabase.reader.read { db in
            try Row.fetchAll(db, sql: "SELECT name, nameOrderKey FROM player ORDER BY id").map { [$0[0] as String, $0[1] as String] }
        }
        #expect(rows == [["Émile", "emile"], ["anita", "anita"]])
    }
}
