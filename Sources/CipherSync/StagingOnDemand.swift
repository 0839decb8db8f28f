import Foundation

/// A store's staging (``SyncStaging``), begun when the first page comes:
/// a sync that brings none (`304 Not Modified`, or a failure before its
/// first page) makes none, and leaves nothing to delete.
///
/// ```swift
/// let staging = StagingOnDemand(store)
/// try await staging.stage(page, number: 1, isCatchUp: false) // begins the store's
/// await staging.discard()
/// ```
actor StagingOnDemand<Store: SyncStore>: SyncStaging {
    typealias Message = Store.Message

    let store: Store
    private var staging: Store.Staging?

    init(_ store: Store) {
        self.store = store
    }

    private func begun() async throws -> Store.Staging {
        if let staging { return staging }
        let begun = try await store.beginStaging()
        staging = begun
        return begun
    }

    func stage(_ page: Message, number: Int, isCatchUp: Bool) async throws {
        try await begun().stage(page, number: number, isCatchUp: isCatchUp)
    }

    func merge(_ fetch: StagedFetch, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts {
        try await begun().merge(fetch, from: endpoint, dryRun: dryRun)
    }

    func discard() async {
        await staging?.discard()
        staging = nil
    }
}
