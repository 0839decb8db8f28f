import CipherDB
import CipherSync
import Foundation
import Players
import PlayersOnServer
import PlayersShared
import PlayersSync
import ServerTestSupport
import SyncSchema
import Synchronization
import TestSupport
import Testing

/// The push half of `players sync`, with the built `players` against the
/// real server on loopback: local changes reach the server and the other
/// clients, conflicts are kept and resolved.
@Suite struct PushCommandTests {
    /// A sandbox with a database synced from the server.
    func syncedSandbox(_ url: URL) async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["init"]).status == 0)
        #expect(try await sandbox.run(["remote", "set", url.absoluteString]).status == 0)
        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 0, "\(sync.error)")
        return sandbox
    }

    func listJSON(_ sandbox: CLISandbox) async throws -> [[String: AnyHashable]] {
        let list = try await sandbox.run(["list", "--json", "--order", "name"])
        let players = try jsonLines(list.output)
        return players.map { ["uuid": $0["uuid"] as? String, "name": $0["name"] as? String, "score": $0["score"] as? Int] }
    }

    /// The counts of `players info --json`.
    func info(_ sandbox: CLISandbox) async throws -> [String: Int] {
        let info = try await sandbox.run(["info", "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any] ?? [:]
        return report.compactMapValues { $0 as? Int }
    }

    @Test func aPlayerAddedOfflineReachesTheServerAndAnotherClient() async throws {
        try await withLiveServer(seed: 2) { store, url in
            let alice = try await syncedSandbox(url)
            let bob = try await syncedSandbox(url)
            #expect(try await alice.run(["add", "--name", "Zaphod", "--score", "42"]).status == 0)

            let push = try await alice.run(["sync"])
            #expect(push.output == "Synced with \(url.absoluteString): pushed 1, +0 ~0 -0, conflicts 0, cursor 3.\n", "\(push.error)")
            #expect(try await serverPlayers(store).contains { $0.name == "Zaphod" && $0.score == 42 })

            let pull = try await bob.run(["sync"])
            #expect(pull.output == "Synced with \(url.absoluteString): pushed 0, +1 ~0 -0, conflicts 0, cursor 3.\n")
            #expect(try await listJSON(alice) == listJSON(bob))
        }
    }

    @Test func twoOfflineEditsOfOnePlayerConvergeAndTheLoserKeepsAConflictUntilResolved() async throws {
        try await withLiveServer(seed: 1) { store, url in
            let alice = try await syncedSandbox(url)
            let bob = try await syncedSandbox(url)
            let uuid = try await serverPlayers(store)[0].uuid.uuidString
            // Both edit player 1 (the same server player) offline.
            #expect(try await alice.run(["edit", "1", "--score", "111"]).status == 0)
            #expect(try await bob.run(["edit", "1", "--score", "222"]).status == 0)

            let first = try await alice.run(["sync"])
            #expect(first.output.hasSuffix(": pushed 1, +0 ~0 -0, conflicts 0, cursor 2.\n"), "\(first.output)\(first.error)")
            let second = try await bob.run(["sync"])
            #expect(second.status == 0)
            #expect(second.output.hasSuffix(": pushed 0, +0 ~0 -0, conflicts 1, cursor 2.\n"), "\(second.output)\(second.error)")
            // The server's value won everywhere.
            #expect(try await serverPlayers(store)[0].score == 111)
            #expect(try await listJSON(bob) == listJSON(alice))
            #expect(try await listJSON(bob).first?["score"] == AnyHashable(111))

            let conflicts = try await bob.run(["conflicts"])
            #expect(conflicts.output.hasPrefix("\(uuid)  "), "\(conflicts.output)")
            #expect(conflicts.output.contains(": local "), "\(conflicts.output)")
            #expect(conflicts.output.contains(", 222 (changed "))
            #expect(conflicts.output.contains("server ") && conflicts.output.contains(", 111 (version 2)"))
            let json = try await bob.run(["conflicts", "--json"])
            let listed = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
            #expect(listed?.count == 1)
            #expect((listed?.first?["local"] as? [String: Any])?["score"] as? Int == 222)
            #expect((listed?.first?["server"] as? [String: Any])?["score"] as? Int == 111)
            #expect(try await alice.run(["conflicts"]).output == "No conflicts.\n")

            #expect(try await info(bob)["conflicts"] == 1)
            #expect(try await info(bob)["pendingChanges"] == 0)
            let resolve = try await bob.run(["conflicts", "resolve", uuid, "--keep-local"])
            #expect(resolve.output == "Kept the local value of \(uuid): the next sync pushes it.\n", "\(resolve.error)")
            #expect(try await info(bob)["conflicts"] == 0)
            #expect(try await info(bob)["pendingChanges"] == 1)
            let third = try await bob.run(["sync"])
            #expect(third.output.hasSuffix(": pushed 1, +0 ~0 -0, conflicts 0, cursor 3.\n"), "\(third.output)\(third.error)")
            _ = try await alice.run(["sync"])
            #expect(try await serverPlayers(store)[0].score == 222)
            #expect(try await listJSON(alice) == listJSON(bob))
            #expect(try await listJSON(alice).first?["score"] == AnyHashable(222))
            #expect(try await bob.run(["conflicts"]).output == "No conflicts.\n")
        }
    }

    @Test func resolvingAPlayerWithoutConflictFailsAndChangesNothing() async throws {
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = sandbox.databaseSnapshot()
        let uuid = UUID().uuidString
        let result = try await sandbox.run(["conflicts", "resolve", uuid, "--keep-server"])
        #expect(result.status == 1)
        #expect(result.error == "players: no conflict for the player \(uuid): nothing was changed\n")
        #expect(sandbox.databaseSnapshot() == before)
        let both = try await sandbox.run(["conflicts", "resolve", uuid, "--keep-local", "--keep-server"])
        #expect(both.status == 2)
        let notAPlayer = try await sandbox.run(["conflicts", "resolve", "not-a-player", "--keep-local"])
        #expect(notAPlayer.status == 2)
        let missingID = try await sandbox.run(["conflicts", "resolve", "7", "--keep-local"])
        #expect(missingID.status == 1)
        #expect(missingID.error == "players: no player with id 7: give the uuid that 'players conflicts' lists\n")
    }

    @Test func aDryRunCountsWhatWouldBePushedAndSendsNothing() async throws {
        try await withLiveServer(seed: 1) { store, url in
            let sandbox = try await syncedSandbox(url)
            #expect(try await sandbox.run(["add", "--name", "Zaphod", "--score", "42"]).status == 0)
            // The pull (an empty delta: the first sync, a snapshot, kept
            // no tag) stages its page in the database, then drops it: the
            // file changes, its content does not.
            let before = try contentChecksum(sandbox)
            let counter = try await store.currentVersion()

            let dryRun = try await sandbox.run(["sync", "--dry-run"])
            #expect(dryRun.output == "Checked \(url.absoluteString): would push 1, up to date, conflicts 0, cursor 1 (dry run: nothing written).\n"
                    || dryRun.output == "Checked \(url.absoluteString): would push 1, +0 ~0 -0, conflicts 0, cursor 1 (dry run: nothing written).\n",
                    "\(dryRun.output)\(dryRun.error)")
            #expect(try await store.currentVersion() == counter)
            #expect(try contentChecksum(sandbox) == before)
        }
    }
}

/// A push whose answer is lost: the retry carries the same mutation ids,
/// and the server applies nothing twice.
@Suite struct PushRetryTests {
    @Test func aBatchAppliedWhoseAnswerWasLostIsSentAgainWithTheSameMutationIDsAndAppliedOnce() async throws {
        try await withLiveServer(seed: 1) { store, url in
            let client = try ClientDatabase()
            _ = try await client.client(url).syncPlayers()
            var player = try #require(try client.players().first)
            player.score = 555
            try client.appDatabase.savePlayer(&player)
            var added = Player(name: "Zaphod", score: 42)
            try client.appDatabase.savePlayer(&added)

            let sent = Sent()
            let dropsAnswer = FaultyTransport(base: RecordingTransport(base: fastTransport(), sent: sent), fault: .answerLost)
            await #expect(throws: InjectedFault.self) { try await client.client(url, transport: dropsAnswer).syncPlayers() }
            let counterAfterFirst = try await store.currentVersion()
            #expect(counterAfterFirst == 3)
            #expect(try client.appDatabase.pendingChangeCount() == 2)

            let report = try await client.client(url, transport: RecordingTransport(base: fastTransport(), sent: sent)).syncPlayers()

            let batches = sent.pushes()
            #expect(batches.count == 2)
            #expect(batches[0].changes.map(\.mutationID) == batches[1].changes.map(\.mutationID))
            #expect(batches[0] == batches[1])
            // Nothing applied twice: the counter did not move on the retry.
            #expect(try await store.currentVersion() == counterAfterFirst)
            #expect(report.push.counts.applied == 2)
            #expect(try client.appDatabase.pendingChangeCount() == 0)
            #expect(try client.entries() == (try await serverPlayers(store)))
        }
    }
}

/// The batches a transport carried.
final class Sent: Sendable {
    private let batches = Mutex<[SyncChangeBatch]>([])

    func append(_ batch: SyncChangeBatch) { batches.withLock { $0.append(batch) } }
    func pushes() -> [SyncChangeBatch] { batches.withLock { $0 } }
}

/// Records each push's batch, then sends it.
struct RecordingTransport: HTTPTransport {
    let base: any HTTPTransport
    let sent: Sent

    func send(_ request: CipherSync.HTTPRequest) async throws -> CipherSync.HTTPResponse {
        if request.method == "POST", let body = request.body, let batch = try? SyncChangeBatch.decode(body, schema: PlayersSchema.schema) {
            sent.append(batch)
        }
        return try await base.send(request)
    }
}

/// A pull that finds a player with local changes waiting to be pushed.
@Suite struct PendingPlayerPullTests {
    @Test func aPullLeavesAPlayerWithQueuedChangesAloneAndTheNextPushKeepsTheConflict() async throws {
        try await withLiveServer(seed: 1) { store, url in
            let client = try ClientDatabase()
            _ = try await client.client(url).syncPlayers()
            var player = try #require(try client.players().first)
            _ = try await store.update(player.uuid, score: 777)
            player.score = 5
            try client.appDatabase.savePlayer(&player)

            // A pull alone (as when the change was made while a sync ran).
            let pull = try await client.client(url).sync()
            #expect(pull.updated == 0)
            #expect(try client.players().first?.score == 5)

            let report = try await client.client(url).syncPlayers()
            #expect(report.push.counts.conflicts == 1)
            #expect(try client.players().first?.score == 777)
            #expect(try client.appDatabase.conflicts().first?.localScore == 5)
        }
    }
}
