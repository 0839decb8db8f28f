import Foundation
import SyncEngine

/// Where synced data goes: reads the stored position, and stages the
/// pages of each sync (``SyncStaging``) until it merges them in one write
/// transaction that also stores the new position.
public protocol SyncStore: Sendable {
    associatedtype Message: SyncMessage
    associatedtype Staging: SyncStaging<Message>

    /// Decodes and checks one page that the server sent, as this store
    /// reads its protocol (an app's declaration, for the engine's pages),
    /// throwing ``SyncPayloadError`` that names the first bad element by
    /// its JSON path.
    func decodePage(_ data: Data) throws -> Message

    /// Where the last merged sync left off.
    func syncPosition() async throws -> SyncPosition

    /// An empty staging area for the pages of one sync.
    func beginStaging() async throws -> Staging

    /// Compares the synced data with the server's digests stored by the
    /// last merge, for a sync that the server answered `304`: the
    /// divergence, or nil when they match or cannot be compared (no digest
    /// stored, local changes waiting to be pushed).
    func checkDigest() async throws -> SyncDivergence?
}

extension SyncStore {
    /// Runs `body` with a new staging area, and discards it when `body`
    /// returns or throws.
    public func withStaging<T: Sendable>(_ body: (Staging) async throws -> T) async throws -> T {
        let staging = try await beginStaging()
        let result: T
        do {
            result = try await body(staging)
        } catch {
            await staging.discard()
            throw error
        }
        await staging.discard()
        return result
    }

    /// Stages the pages of a fetch held in memory, in order, and merges
    /// them: for a caller that has every page already (a benchmark, a
    /// test). ``SyncClient`` stages each page as it arrives instead.
    public func merge(_ fetch: SyncFetch<Message>, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts {
        try await withStaging { staging in
            for (index, page) in (fetch.pages + fetch.catchUp).enumerated() {
                try await staging.stage(page, number: index + 1, isCatchUp: index >= fetch.pages.count)
            }
            let digests = (fetch.catchUp.last ?? fetch.pages.last)?.serverDigests
            return try await staging.merge(StagedFetch(kind: fetch.kind, cursor: fetch.cursor, etag: fetch.etag, digests: digests),
                                           from: endpoint, dryRun: dryRun)
        }
    }
}
