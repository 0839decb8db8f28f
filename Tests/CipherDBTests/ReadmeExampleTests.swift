import CipherDB
import Foundation
import TestSupport
import Testing

/// The README's example, so that it stays true to the code.
@Suite struct ReadmeExampleTests {
    static func loadPassphrase() -> String { "readme passphrase" }

    struct Player: Codable, Identifiable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int

        enum Columns {
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    @Test func readmeExampleRuns() async throws {
        let folder = try TemporaryFolder()

        var config = Configuration()
        config.prepareDatabase { db in
            try db.usePassphrase(Self.loadPassphrase())
        }
        let dbPool = try DatabasePool(path: folder.path("db.sqlite"), configuration: config)

        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        try migrator.migrate(dbPool)

        try await dbPool.write { db in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            try player.updateChanges(db) { $0.score = 1000 }
            var other = Player(id: nil, name: "Barbara", score: 10)
            try other.insert(db)
        }

        let best = try await dbPool.read { db in
            try Player
                .filter(Player.Columns.score > 500)
                .order(Player.Columns.score.desc, Player.Columns.name)
                .fetchAll(db)
        }
        #expect(best.map(\.name) == ["Arthur"])
        #expect(best.first?.score == 1000)
    }
}
