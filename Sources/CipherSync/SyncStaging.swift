import Foundation

/// Where the pages of one sync wait until they are merged all at once:
/// the client hands each page to ``stage(_:number:isCatchUp:)`` as soon as
/// it is fetched and checked, and keeps none, so that what a sync holds
/// in memory does not grow with its pages. A ``SyncStore`` makes one for
/// each sync (``SyncStore/beginStaging()``); the client discards it when
/// the sync ends, merged or not.
///
/// ```swift
/// try await store.withStaging { staging in
///     try await staging.stage(page, number: 1, isCatchUp: false)
///     return try await staging.merge(StagedFetch(kind: .snapshot, cursor: "42", etag: nil), from: endpoint, dryRun: false)
/// }
/// ```
public protocol SyncStaging<Message>: Sendable {
    associatedtype Message: SyncMessage

    /// Keeps one page, decoded and checked, without writing the store's
    /// data. `number` counts the pages of the sync from 1; `isCatchUp`
    /// says the page belongs to the delta that follows a snapshot of
    /// several pages. Throws ``SyncPayloadError`` naming this page when it
    /// contradicts an earlier one (a snapshot that lists an item twice).
    func stage(_ page: Message, number: Int, isCatchUp: Bool) async throws

    /// Applies every staged page and stores `fetch.cursor`, `fetch.etag`
    /// and `endpoint` in one transaction; in a dry run, only counts what
    /// it would do. Throws before writing anything when it fails.
    func merge(_ fetch: StagedFetch, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts

    /// Drops the staged pages. Called once, whatever happened; it never
    /// fails, and task cancellation does not interrupt it.
    func discard() async
}
