import Foundation
import PlayersOnServer
import ServerTestSupport
import TestSupport
import Testing

/// Several instances on one database, as servers behind a load balancer:
/// writers through both, a reader paging a delta meanwhile.
@Suite struct ConcurrentStoresTests {
    static let writers = 8
    static let creationsPerWriter = TestTier.current.size(correctness: 30, long: 250)

    /// Every creation takes one version and keeps it, so the versions of
    /// the players are exactly 1…N; a reader that pages the delta while
    /// the others write, following its cursor, must see each of them once
    /// (a reader that skipped a change committed late would miss one).
    @Test(arguments: StoreKind.allCases)
    func writersOnTwoInstancesGetUniqueVersionsAndADeltaReaderMissesNone(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let stores = [try await sandbox.makeStore(), try await sandbox.makeStore()]
            let total = Self.writers * Self.creationsPerWriter
            let writersDone = TestFlag()
            let reader = Task { [reader = stores[1]] in
                var versions: [Int64] = []
                var cursor: Int64 = 0
                // Pages until a last page read after the writers ended (read
                // before the page: such a page holds every change); pauses
                // only when it has caught up with them.
                try await waitUntil("a delta reader following the writers to their end", timeout: hangGuard * 5) {
                    while true {
                        let finished = writersDone.isSet
                        guard let page = try await reader.engine.changes(after: cursor, limit: 8, tables: nil) else {
                            throw DeltaGone(cursor: cursor)
                        }
                        let changes = page.rows.prefix(7)
                        versions += changes.filter(\.isLive).map(\.version)
                        let isLast = page.rows.count <= 7
                        cursor = isLast ? page.counter : changes.last!.version
                        if isLast, finished { return true }
                        if changes.isEmpty { return false }
                    }
                }
                return versions
            }
            let created = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for writer in 0..<Self.writers {
                    let store = stores[writer % stores.count]
                    group.addTask {
                        var versions: [Int64] = []
                        for index in 0..<Self.creationsPerWriter {
                            versions.append(try await store.insert(name: "W\(writer)-\(index)", score: index).version)
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

    struct DeltaGone: Error {
        var cursor: Int64
    }
}
