import CipherDB
import Foundation
import Players
import TestSupport
import Testing

/// The seeds' PlayerListModel tests, without a UI framework.
@Suite struct PlayerListTests {
    @Test(.hangGuard, arguments: Storage.allCases)
    func observationGrabsCurrentDatabaseState(_ storage: Storage) async throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        var player = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&player)
        let model = PlayerList(appDatabase: appDatabase)

        model.observePlayers()

        try await waitUntil("the model shows the one player") { model.players.count == 1 }
    }

    @Test(.hangGuard, arguments: Storage.allCases)
    func observationGrabsDatabaseChanges(_ storage: Storage) async throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let model = PlayerList(appDatabase: appDatabase)
        model.observePlayers()
        try await waitUntil("the model shows no player") { model.players.isEmpty }

        var player = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&player)

        let saved = player
        try await waitUntil("the model shows the saved player") { model.players == [saved] }
    }

    @Test(.hangGuard, arguments: Storage.allCases)
    func changingTheOrderingResortsThePlayers(_ storage: Storage) async throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        var arthur = Player(name: "Arthur", score: 100)
        var barbara = Player(name: "Barbara", score: 1000)
        try appDatabase.savePlayer(&arthur)
        try appDatabase.savePlayer(&barbara)
        let model = PlayerList(appDatabase: appDatabase, ordering: .byScore)
        model.observePlayers()
        try await waitUntil("the model shows the players by score") { model.players.map(\.name) == ["Barbara", "Arthur"] }

        model.ordering = .byName

        try await waitUntil("the model shows the players by name") { model.players.map(\.name) == ["Arthur", "Barbara"] }
    }

    @Test(.hangGuard, arguments: Storage.allCases)
    func updatesAreAnAsyncSequence(_ storage: Storage) async throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let model = PlayerList(appDatabase: appDatabase, ordering: .byName)
        let updates = model.updates
        model.observePlayers()
        var received: [[String]] = []
        for await players in updates {
            received.append(players.map(\.name))
            if players.isEmpty {
                var player = Player(name: "Arthur", score: 1)
                try appDatabase.savePlayer(&player)
            } else {
                break
            }
        }
        #expect(received == [[], ["Arthur"]])
        model.stopObserving()
    }
}
