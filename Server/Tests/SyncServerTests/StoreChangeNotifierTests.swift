import Foundation
import NIOCore
import NIOEmbedded
import SyncServer
import TestSupport
import Testing

/// The waiters of long-polls: held without a thread each, woken by one
/// change, released at shutdown, timed out at their deadline (on a loop
/// whose clock moves only when the test advances it).
@Suite struct StoreChangeNotifierTests {
    /// 10,000 in both tiers: the memory bound per waiter needs that many to
    /// stand above what the other tests of the process allocate meanwhile
    /// (157 KiB "per waiter" was measured with 1,000 in a full run).
    static let waiters = 10_000

    @Test func manyWaitersAreHeldInLittleMemoryAndAllWokenByOneChange() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let residentBefore = Self.residentBytes()
        let threadsBefore = Self.threadCount()
        // Real timers, whose memory counts; their deadline is past any hang
        // guard here, so that a waiter can only end by the change.
        let deadline = NIODeadline.now() + .seconds(600)
        let outcomes = try await withThrowingTaskGroup(of: StoreChangeWait.self) { group in
            for _ in 0..<Self.waiters {
                group.addTask { await notifier.wait(after: 7, until: deadline) }
            }
            try await waitUntil("\(Self.waiters) waiters held", timeout: hangGuard * 5) { notifier.waiterCount == Self.waiters }
            let perWaiter = (Self.residentBytes() - residentBefore) / Self.waiters
            // The waiter, its timer and its suspended task: a few hundred
            // bytes to a few KiB each, and never a thread. Both bounds are
            // loose because the other tests of the process allocate and
            // start threads meanwhile (214 more threads were seen in a
            // full run, each running program waits on three): a thread
            // per waiter would still be ten times over.
            let threads = Self.threadCount() - threadsBefore
            print("StoreChangeNotifier: about \(perWaiter) bytes per waiting task, \(threads) threads more (\(Self.waiters) waiters)")
            #expect(perWaiter < 65_536)
            #expect(threads < Self.waiters / 10)
            notifier.publish(8)
            return try await group.reduce(into: [StoreChangeWait: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes == [.changed: Self.waiters])
        #expect(notifier.waiterCount == 0)
    }

    @Test func aWaiterAfterAnOlderVersionReturnsAtOnce() async {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        #expect(await notifier.wait(after: 6, until: .now() + .seconds(60)) == .changed)
    }

    @Test func aWaiterTimesOutAtItsDeadline() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let clock = NIOAsyncTestingEventLoop()
        let deadline = clock.now + .milliseconds(300)
        let waiting = Task { await notifier.wait(after: 7, until: deadline, timers: clock) }
        try await waitUntil("the waiter held") { notifier.waiterCount == 1 }
        await clock.advanceTime(by: .milliseconds(299))
        #expect(notifier.waiterCount == 1, "still held a millisecond before its deadline")
        await clock.advanceTime(by: .milliseconds(1))
        // The waiter is counted just before its timer is set: a timer set
        // after the clock moved fires at the clock's next step.
        try await waitUntil("the waiter timed out") {
            await clock.advanceTime(by: .zero)
            return notifier.waiterCount == 0
        }
        #expect(await waiting.value == .timedOut)
        #expect(notifier.waiterCount == 0)
        await clock.shutdownGracefully()
    }

    @Test func releasingAnswersEveryWaiterNowAndLaterOnes() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let waiting = Task { await notifier.wait(after: 7, until: .now() + .seconds(60)) }
        try await waitUntil("the waiter held") { notifier.waiterCount == 1 }
        #expect(notifier.releaseAll() == 1)
        #expect(await waiting.value == .released)
        #expect(await notifier.wait(after: 7, until: .now() + .seconds(60)) == .released)
    }

    @Test func aCancelledWaiterIsReleased() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let waiting = Task { await notifier.wait(after: 7, until: .now() + .seconds(60)) }
        try await waitUntil("the waiter held") { notifier.waiterCount == 1 }
        waiting.cancel()
        #expect(await waiting.value == .released)
        #expect(notifier.waiterCount == 0)
    }

    /// The process's resident memory (Linux: /proc/self/statm).
    /// The threads of this process (`Threads:` of /proc/self/status).
    static func threadCount() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }
        return line.flatMap { Int($0.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    static func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
