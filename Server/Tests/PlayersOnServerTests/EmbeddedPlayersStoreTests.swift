import CipherDB
import Foundation
import PlayersOnServer
import PlayersShared
import ServerTestSupport
import SyncServerEmbedded
import TestSupport
import Testing

@Suite struct EmbeddedPlayersStoreTests {
    /// Runs `body` with a store on an encrypted file in its own folder
    /// (removed afterwards), and the configuration that opens the file.
    func withStore(busyMode: Database.BusyMode, _ body: (PlayersTestStore, String, Configuration) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        var configuration = storeFileConfiguration()
        configuration.busyMode = busyMode
        let path = folder.path("server.db")
        let store = PlayersTestStore(EmbeddedSyncStore(try ServerSyncDatabase(DatabasePool(path: path, configuration: configuration),
                                                                                 schema: PlayersSchema.schema)))
        try await body(store, path, configuration)
        try await store.close()
    }

    /// More writes than Swift has cooperative threads wait for a lock held
    /// by another connection; a read answers meanwhile, and only then is
    /// the lock released. Run on the caller's threads, the writes would
    /// hold every cooperative thread: the read could not start until they
    /// gave up (the busy timeout), and they would fail.
    @Test func writesWaitingForTheLockHoldNoCooperativeThread() async throws {
        let writeCount = ProcessInfo.processInfo.activeProcessorCount + 4
        let writeAtTheLock = TestFlag()
        let writesStarted = TestCounter()
        // A write waits for the lock up to the hang guard (a try a
        // millisecond, or longer on a loaded machine), and tells the test
        // that it waits. (A budget of 10 s failed once: in a whole run the
        // steps between the lock and its release took 11 to 75 s, each
        // await waiting for one of Swift's two cooperative threads, which
        // the other tests keep busy.)
        let tries = Int(hangGuard.components.seconds) * 1000
        let busyMode = Database.BusyMode.callback { tried in
            writeAtTheLock.set()
            usleep(1000)
            return tried < tries
        }
        try await withStore(busyMode: busyMode) { store, path, configuration in
            var holderConfiguration = configuration
            holderConfiguration.allowsUnsafeTransactions = true
            let holder = try DatabaseQueue(path: path, configuration: holderConfiguration)
            try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            let writes = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<writeCount {
                        group.addTask {
                            writesStarted.increment()
                            try await store.insert(name: "P\(index)", score: index)
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await waitUntil("\(writeCount) writes started, one of them waiting for the lock") {
                writesStarted.value == writeCount && writeAtTheLock.isSet
            }
            let players = try await store.allPlayers()
            try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            try holder.close()
            try await writes.value
            #expect(players.isEmpty)
            #expect(try await store.allPlayers().count == writeCount)
        }
    }
}
