import Foundation
import NIOCore
import PlayersServerStore
import Testing

/// The waiters of long-polls: held without a thread each, woken by one
/// change, released at shutdown, timed out at their deadline.
@Suite struct StoreChangeNotifierTests {
    static let waiters = 10_000

    @Test func tenThousandWaitersAreHeldInLittleMemoryAndAllWokenByOneChange() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let residentBefore = Self.residentBytes()
        let threadsBefore = Self.threadCount()
        let deadline = NIODeadline.now() + .seconds(600)
        let outcomes = try await withThrowingTaskGroup(of: StoreChangeWait.self) { group in
            for _ in 0..<Self.waiters {
                group.addTask { await notifier.wait(after: 7, until: deadline) }
            }
            let held = ContinuousClock.now + .seconds(300)
            while notifier.waiterCount < Self.waiters, ContinuousClock.now < held {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(notifier.waiterCount == Self.waiters)
            let perWaiter = (Self.residentBytes() - residentBefore) / Self.waiters
            // The waiter, its timer and its suspended task: a few hundred
            // bytes to a few KiB each (the other tests of the process
            // allocate meanwhile: a loose bound), and never a thread.
            print("StoreChangeNotifier: about \(perWaiter) bytes per waiting task")
            #expect(perWaiter < 65_536)
            #expect(Self.threadCount() - threadsBefore < 100)
            let woken = ContinuousClock.now
            notifier.publish(8)
            let outcomes = try await group.reduce(into: [StoreChangeWait: Int]()) { $0[$1, default: 0] += 1 }
            // Well before their deadline, on a machine busy with other tests.
            #expect(ContinuousClock.now - woken < .seconds(30))
            return outcomes
        }
        #expect(outcomes == [.changed: Self.waiters])
        #expect(notifier.waiterCount == 0)
    }

    @Test func aWaiterAfterAnOlderVersionReturnsAtOnce() async {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        #expect(await notifier.wait(after: 6, until: .now() + .seconds(60)) == .changed)
    }

    @Test func aWaiterTimesOutAtItsDeadline() async {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let start = ContinuousClock.now
        #expect(await notifier.wait(after: 7, until: .now() + .milliseconds(300)) == .timedOut)
        #expect(ContinuousClock.now - start >= .milliseconds(290))
        #expect(notifier.waiterCount == 0)
    }

    @Test func releasingAnswersEveryWaiterNowAndLaterOnes() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let waiting = Task { await notifier.wait(after: 7, until: .now() + .seconds(60)) }
        while notifier.waiterCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        notifier.releaseAll()
        #expect(await waiting.value == .released)
        #expect(await notifier.wait(after: 7, until: .now() + .seconds(60)) == .released)
    }

    @Test func aCancelledWaiterIsReleased() async throws {
        let notifier = StoreChangeNotifier(latestVersion: 7)
        let waiting = Task { await notifier.wait(after: 7, until: .now() + .seconds(60)) }
        while notifier.waiterCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
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
