import Foundation
import PlayersServerStore
import Synchronization
import ServerTestSupport
import Testing

/// Several instances on one database, as servers behind a load balancer:
/// writers through both, a reader paging a delta meanwhile.
@Suite struct ConcurrentStoresTests {
    static let writers = 8
    static let creationsPerWriter = 30

    /// Every creation takes one version and keeps it, so the versions of
    /// the players are exactly 1…N; a reader that pages the delta while
    /// the others write, following its cursor, must see each of them once
    /// (a reader that skipped a change committed late would miss one).
    @Test(arguments: StoreKind.allCases)
    func writersOnTwoInstancesGetUniqueVersionsAndADeltaReaderMissesNone(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let stores = [try await sandbox.makeStore(), try await sandbox.makeStore()]
            let total = Self.writers * Self.creationsPerWriter
            let writersDone = Flag()
            let reader = Task { [reader = stores[1]] in
                var versions: [Int64] = []
                var cursor: Int64 = 0
                while true {
                    // Read before the page: a last page read after the
                    // writers ended holds every change.
                    let finished = writersDone.isSet
                    guard let page = try await reader.delta(since: cursor, limit: 7) else {
                        throw DeltaGone(cursor: cursor)
                    }
                    for change in page.changes {
                        guard case .player(let player) = change else { continue }
                        versions.append(player.version)
                    }
                    cursor = page.version
                    if page.isLast, finished { return versions }
                    if page.changes.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
            let created = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for writer in 0..<Self.writers {
                    let store = stores[writer % stores.count]
                    group.addTask {
                        var versions: [Int64] = []
                        for index in 0..<Self.creationsPerWriter {
                            let player = try await store.create(uuid: UUID(), name: "W\(writer)-\(index)", score: index)
                            versions.append(try #require(player).version)
                        }
                        return versions
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            writersDone.set()
            let seen = try await reader.value
            #expect(created.sorted() == Array(1...Int64(total)))
            #expect(seen == Array(1...Int64(total)))
            for store in stores { try await store.close() }
        }
    }

    /// Set once, read from other tasks.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    struct DeltaGone: Error {
        var cursor: Int64
    }
}
