import CipherSync
import Foundation

/// The pages of one sync of a ``MemorySyncStore``, kept in memory until
/// the merge hands them to the store.
actor MemorySyncStaging: SyncStaging {
    let store: MemorySyncStore
    private var pages: [TestPage] = []
    private var catchUp: [TestPage] = []

    init(store: MemorySyncStore) {
        self.store = store
    }

    func stage(_ page: TestPage, number: Int, isCatchUp: Bool) async {
        if isCatchUp { catchUp.append(page) } else { pages.append(page) }
        await store.recordStaged(number: number, isCatchUp: isCatchUp)
    }

    func merge(_ fetch: StagedFetch, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts {
        let whole = SyncFetch(kind: fetch.kind, pages: pages, catchUp: catchUp, cursor: fetch.cursor, etag: fetch.etag, bytesReceived: 0)
        return try await store.apply(whole, digests: fetch.digests, from: endpoint, dryRun: dryRun)
    }

    func discard() async {
        await store.recordDiscarded()
    }
}
