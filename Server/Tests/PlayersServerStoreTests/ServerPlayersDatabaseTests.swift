import CipherDB
import Foundation
import Synchronization
import PlayersServerStore
import TestSupport
import Testing

@Suite struct ServerPlayersDatabaseTests {
    /// Runs `body` with a store on an encrypted file in its own folder,
    /// removed afterwards.
    func withStore(_ body: (ServerPlayersDatabase) throws -> Void) throws {
        let folder = try TemporaryFolder()
        let configuration = storeFileConfiguration()
        try body(ServerPlayersDatabase(DatabasePool(path: folder.path("server.db"), configuration: configuration)))
    }

    @Test func everyChangeTakesTheNextVersion() throws {
        try withStore { store in
            #expect(try store.currentVersion() == 0)
            let arthur = try store.insert(name: "Arthur", score: 10)
            let barbara = try store.insert(name: "Barbara", score: 20)
            #expect([arthur.version, barbara.version] == [1, 2])
            let updated = try #require(try store.update(arthur.uuid, name: nil, score: 30))
            #expect(updated.version == 3)
            #expect(updated.score == 30 && updated.name == "Arthur")
            #expect(try store.delete(barbara.uuid))
            #expect(try store.delete(barbara.uuid) == false)
            #expect(try store.update(barbara.uuid, name: "Ghost", score: nil) == nil)
            #expect(try store.currentVersion() == 4)
        }
    }

    @Test func snapshotsHoldTheLivePlayersAndTheCurrentVersion() throws {
        try withStore { store in
            let players = try (0..<5).map { try store.insert(name: "P\($0)", score: $0) }
            try store.delete(players[2].uuid)
            let snapshot = try store.snapshot(limit: 100)
            #expect(snapshot.isLast)
            #expect(snapshot.version == 6)
            #expect(Set(snapshot.players.map(\.uuid)) == Set(players.map(\.uuid)).subtracting([players[2].uuid]))
        }
    }

    @Test func deltasHoldChangesAndTombstonesAfterTheCursor() throws {
        try withStore { store in
            let arthur = try store.insert(name: "Arthur", score: 1)
            let barbara = try store.insert(name: "Barbara", score: 2)
            let cursor = try store.currentVersion()
            let craig = try store.insert(name: "Craig", score: 3)
            _ = try store.update(arthur.uuid, name: nil, score: 100)
            try store.delete(barbara.uuid)

            let delta = try #require(try store.delta(since: cursor, limit: 100))
            #expect(delta.isLast)
            #expect(delta.version == 5)
            guard delta.changes.count == 3,
                  case .player(let first) = delta.changes[0], case .player(let second) = delta.changes[1],
                  case .tombstone(let tombstone) = delta.changes[2]
            else {
                Issue.record("unexpected changes: \(delta.changes)")
                return
            }
            #expect(first.uuid == craig.uuid)
            #expect(second.uuid == arthur.uuid && second.score == 100)
            #expect(tombstone.uuid == barbara.uuid && tombstone.version == 5)
            #expect(try store.delta(since: 5, limit: 100)?.changes == [])
        }
    }

    @Test func deltaPagesFollowEachOtherByVersion() throws {
        try withStore { store in
            for index in 0..<7 { _ = try store.insert(name: "P\(index)", score: index) }
            var since: Int64 = 0
            var seen: [Int64] = []
            while true {
                let page = try #require(try store.delta(since: since, limit: 3))
                for change in page.changes {
                    if case .player(let player) = change { seen.append(player.version) }
                }
                since = page.version
                if page.isLast { break }
            }
            #expect(seen == Array(1...7))
            #expect(since == 7)
        }
    }

    @Test func snapshotPagingReturnsEachPlayerOnceWhileWritesHappen() throws {
        try withStore { store in
            let originals = try (0..<20).map { try store.insert(name: "P\($0)", score: $0) }
            var seen: [UUID] = []
            var after: UUID?
            let first = try store.snapshot(limit: 6)
            var page = first
            while true {
                seen += page.players.map(\.uuid)
                // Writes between pages: updates of players already seen and to come.
                _ = try store.update(originals.randomElement()!.uuid, name: nil, score: 999)
                if page.isLast { break }
                after = page.players.last?.uuid
                page = try store.snapshot(limit: 6, afterUUID: after)
            }
            #expect(seen.count == 20)
            #expect(Set(seen) == Set(originals.map(\.uuid)))
            // The changes made during paging are in the delta after the first page's cursor.
            let catchUp = try #require(try store.delta(since: first.version, limit: 100))
            #expect(!catchUp.changes.isEmpty)
        }
    }

    @Test func expiredTombstonesMakeOldCursorsGone() throws {
        try withStore { store in
            let player = try store.insert(name: "A", score: 1)
            let oldCursor = try store.currentVersion()
            try store.delete(player.uuid, at: Date(timeIntervalSinceNow: -3600))
            try store.purgeTombstones(olderThan: 60)
            #expect(try store.delta(since: oldCursor, limit: 10) == nil) // too old: take a snapshot
            #expect(try store.delta(since: store.currentVersion(), limit: 10) != nil)
            #expect(try store.delta(since: 999, limit: 10) == nil) // a cursor from another server
        }
    }

    @Test func refreshChangesSomethingInOneTransaction() throws {
        try withStore { store in
            try store.refresh()
            let first = try store.snapshot(limit: 100)
            #expect(first.players.count == 8)
            #expect(first.version == 8)
            var changed = false
            for _ in 0..<10 {
                let before = try store.currentVersion()
                try store.refresh()
                let delta = try #require(try store.delta(since: before, limit: 1000))
                // Every change of a refresh has its own version, all after the cursor.
                #expect(delta.version == (try store.currentVersion()))
                changed = changed || !delta.changes.isEmpty
            }
            #expect(changed)
        }
    }

    @Test func concurrentReadersSeeTheCounterOfTheChangesTheySee() throws {
        try withStore { store in
            try store.seed(50)
            let failures = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                for _ in 0..<25 {
                    if worker == 0 {
                        try? store.refresh()
                    } else if let all = try? store.delta(since: 0, limit: 10_000) {
                        // Each change commits with its counter value: the
                        // cursor is the version of the last change seen.
                        let versions = all.changes.map { change -> Int64 in
                            switch change {
                            case .player(let player): return player.version
                            case .tombstone(let tombstone): return tombstone.version
                            }
                        }
                        if versions.max() != all.version { failures.withLock { $0 += 1 } }
                    }
                }
            }
            #expect(failures.withLock { $0 } == 0)
        }
    }

    @Test func seedFillsAnEmptyDatabaseOnly() throws {
        try withStore { store in
            try store.seed(20)
            try store.seed(20)
            #expect(try store.snapshot(limit: 100).players.count == 20)
        }
    }
}
