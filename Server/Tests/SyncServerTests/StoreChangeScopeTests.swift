import Foundation
import NIOCore
import NIOEmbedded
import SyncServer
import SyncServerPostgres
import TestSupport
import Testing

/// Long-polls of users (``StoreChangeInterest``): woken only by the commits
/// whose scope concerns them, or whose scope is unknown, before they wait
/// as while they wait.
@Suite struct StoreChangeScopeTests {
    let alice = StoreChangeInterest(user: "alice", partitions: ["user:alice", "group:notebook:A"])
    let bob = StoreChangeInterest(user: "bob", partitions: ["user:bob"])

    /// Waits of alice and bob after version 7, which the test ends with
    /// `publish`; the outcome of each, once both ended or their 60 s ran out.
    func outcomes(_ publish: @Sendable (StoreChangeNotifier) -> Void) async throws -> (alice: StoreChangeWait, bob: StoreChangeWait) {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let deadline = NIODeadline.now() + .seconds(60)
        async let alice = notifier.wait(after: 7, until: deadline, for: self.alice)
        async let bob = notifier.wait(after: 7, until: deadline, for: self.bob)
        try await waitUntil("both wait") { notifier.waiterCount == 2 }
        publish(notifier)
        // What the publish left waiting ends now, as its deadline would.
        try await waitUntil("the publish was taken") { notifier.latestVersion > 7 }
        _ = notifier.releaseAll()
        return (await alice, await bob)
    }

    @Test func aCommitOfOneUsersPartitionWakesOnlyThatUser() async throws {
        let woken = try await outcomes { $0.publish(8, scope: StoreChangeScope(partitions: ["group:notebook:A"])) }
        #expect(woken.alice == .changed)
        #expect(woken.bob == .released)
    }

    @Test func aSharedRowAGrantOrAnUnknownScopeWakesWhomItConcerns() async throws {
        let everyone = try await outcomes { $0.publish(8, scope: StoreChangeScope(concernsEveryone: true)) }
        #expect(everyone.alice == .changed && everyone.bob == .changed)
        let granted = try await outcomes { $0.publish(8, scope: StoreChangeScope(partitions: ["group:notebook:B"], users: ["bob"])) }
        #expect(granted.alice == .released && granted.bob == .changed)
        let unknown = try await outcomes { $0.publish(8) }
        #expect(unknown.alice == .changed && unknown.bob == .changed)
    }

    @Test func aCommitBeforeTheWaitCountsOnlyIfItConcernsTheWaiter() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        notifier.publish(8, scope: StoreChangeScope(partitions: ["user:bob"]))
        #expect(await notifier.wait(after: 7, until: .now() + .seconds(60), for: bob) == .changed)
        // Alice's wait is not answered by bob's commit: only its deadline
        // ends it, on a clock that moves when the test moves it.
        let clock = NIOAsyncTestingEventLoop()
        let deadline = clock.now + .seconds(60)
        async let waited = notifier.wait(after: 7, until: deadline, timers: clock, for: alice)
        try await waitUntil("alice waits") { notifier.waiterCount == 1 }
        await clock.advanceTime(to: deadline)
        #expect(await waited == .timedOut)
        await clock.shutdownGracefully()
        // A commit older than those kept is unknown: it answers at once.
        #expect(await notifier.wait(after: 6, until: .now() + .seconds(60), for: alice) == .changed)
    }

    @Test func aNotificationCarriesItsScopeOrNoneWhenTooLong() {
        let scope = StoreChangeScope(partitions: ["group:notebook:A"], users: ["Ann Lee"])
        #expect(PostgresChangeListener.scope(ofPayload: Substring(PostgresChangeListener.payload(of: scope))) == scope)
        let large = StoreChangeScope(partitions: Set((0..<1_000).map { "group:notebook:\($0)" }))
        #expect(PostgresChangeListener.payload(of: large) == "")
        #expect(PostgresChangeListener.scope(ofPayload: "") == nil)
    }
}
