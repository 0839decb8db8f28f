import CipherSync
import Foundation
import SyncEngine
import SyncSchema

/// A store of ``TestPage`` items in memory, as a real store behaves: its
/// staging keeps the pages of a sync (``MemorySyncStaging``), and a merge
/// applies them all and stores the position, or, in a dry run or when it
/// fails, changes nothing.
actor MemorySyncStore: SyncStore {
    private(set) var items: [String: Int]
    private(set) var position: SyncPosition
    /// Every fetch handed to `merge`, dry runs and failed merges included.
    private(set) var merges: [(fetch: SyncFetch<TestPage>, dryRun: Bool)] = []
    /// Every page staged, by its number and whether it was of a catch-up
    /// delta, in the order staged.
    private(set) var staged: [(number: Int, isCatchUp: Bool)] = []
    /// The stagings begun, and those discarded.
    private(set) var stagingsBegun = 0
    private(set) var stagingsDiscarded = 0
    /// What `merge` throws, if anything: before it changes anything.
    private let mergeError: (any Error)?

    init(items: [String: Int] = [:], position: SyncPosition = SyncPosition(), mergeError: (any Error)? = nil) {
        self.items = items
        self.position = position
        self.mergeError = mergeError
    }

    /// The server's digests stored by the last merge.
    private(set) var storedDigests: [SyncTableDigest]?

    nonisolated func decodePage(_ data: Data) throws -> TestPage {
        try TestPage.decodePage(data)
    }

    func syncPosition() -> SyncPosition {
        position
    }

    /// The test protocol's digest of items, as of a table `item` whose
    /// one column is the value: their count, and the XOR of each item's
    /// hash (``SyncRowHasher``, the name as the id), so that a changed
    /// value changes it.
    static func digest(of items: [String: Int]) -> SyncTableDigest {
        let hasher = SyncRowHasher()
        var digest = SyncTableDigest(table: "item", columns: ["value"], rows: 0, checksum: 0)
        for (name, value) in items {
            digest.toggle(hasher.hash(idText: name, version: 0, values: [.integer(Int64(value))]))
        }
        return digest
    }

    /// How the items differ from the server's digest of them, if they do.
    private func divergence(from server: [SyncTableDigest]?) -> SyncDivergence? {
        let local = Self.digest(of: items)
        guard let server = server?.first(where: { $0.table == local.table }), server != local else { return nil }
        return SyncDivergence(local: [local], server: [server])
    }

    func checkDigest() -> SyncDivergence? {
        divergence(from: storedDigests)
    }

    /// Changes an item behind the sync's back, as a bug or a disk would.
    func corrupt(_ name: String, _ value: Int?) {
        items[name] = value
    }

    func beginStaging() -> MemorySyncStaging {
        stagingsBegun += 1
        return MemorySyncStaging(store: self)
    }

    func recordStaged(number: Int, isCatchUp: Bool) {
        staged.append((number, isCatchUp))
    }

    func recordDiscarded() {
        stagingsDiscarded += 1
    }

    /// Applies every page of the fetch, as one change.
    func apply(_ fetch: SyncFetch<TestPage>, digests: [SyncTableDigest]?, from endpoint: URL, dryRun: Bool) throws -> SyncCounts {
        merges.append((fetch, dryRun))
        if let mergeError { throw mergeError }
        var merged = items
        var counts = SyncCounts()
        for page in fetch.pages + fetch.catchUp {
            for (name, value) in page.items {
                switch merged[name] {
                case nil: counts.inserted += 1
                case value: counts.unchanged += 1
                default: counts.updated += 1
                }
                merged[name] = value
            }
        }
        guard !dryRun else { return counts }
        items = merged
        position = SyncPosition(endpoint: endpoint.absoluteString, cursor: fetch.cursor, etag: fetch.etag)
        storedDigests = digests
        counts.divergence = divergence(from: digests)
        return counts
    }
}
