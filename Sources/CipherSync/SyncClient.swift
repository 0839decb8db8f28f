import Foundation
import SyncEngine
import SyncSchema
import TerminalText

/// Fetches a sync protocol's pages from an endpoint and merges them into a
/// store, all of them or none.
///
/// With a stored cursor, it asks for the delta since it (with the stored
/// `ETag`: `304` means up to date); `410 Gone`, a cursor from another
/// endpoint or longer than ``maximumCursorLength``, or `full` take a
/// snapshot. Each page is fetched, decoded, checked and handed to the
/// store's staging (``SyncStaging``) before the next is fetched, and not
/// kept: what a sync holds in memory does not grow with its pages. Once
/// every page is staged, the store merges them in one write transaction.
///
/// Where the protocol's cursors name a history (``SyncCursorPosition``),
/// no answer of another history is merged as if it were the stored one's:
/// a delta page must continue its cursor's server and epoch, and a
/// snapshot of another server's database throws ``SyncError/otherServer``
/// (unless ``allowsOtherServer``); a snapshot of another epoch of the same
/// database is merged as a ``SyncHistoryChange/wentBack``, which the store
/// uses to keep what the server lost.
///
/// What a hostile server can make one sync hold is bounded: pages
/// (``maximumPages``), their bytes together (``maximumBytes``), the time
/// to fetch them (``maximumDuration``) and the cursor to store
/// (``maximumCursorLength``). Past any of them the sync fails with
/// ``SyncError/tooLarge`` or ``SyncError/deadlineExceeded`` (or
/// ``SyncPayloadError`` for the cursor), and nothing is written: the
/// staged pages are discarded, as after any failure.
///
/// ```swift
/// let client = SyncClient(transport: CurlTransport(), endpoint: URL(string: "http://127.0.0.1:8080/v1/sync/rows?tables=player")!, store: store)
/// let report = try await client.sync()
/// print(report) // +12 ~3 -1, cursor 4815
/// ```
public struct SyncClient<Store: SyncStore>: Sendable {
    public let transport: any HTTPTransport
    /// The collection's URL, such as `http://127.0.0.1:8080/v1/sync/rows?tables=player`.
    public let endpoint: URL
    public var store: Store
    /// The most pages one sync follows, a snapshot's catch-up delta
    /// included: a server whose `next` links never end is refused.
    public var maximumPages = 10_000
    /// The most bytes the pages of one sync may hold together, counted
    /// after decompression (each page is also bounded by its transport).
    /// Default: 256 MiB.
    public var maximumBytes = 256 * 1024 * 1024
    /// The longest the network part of one sync may last, in seconds:
    /// connecting, every request, retries and their waits, the staging of
    /// each page (and for `pushThenPull`, the push too); the local merge
    /// that follows is not counted; a long-poll's wait (``waitSeconds``)
    /// is added to it. Default: 600.
    public var maximumDuration: TimeInterval = 600
    /// The longest cursor stored, in UTF-8 bytes; an `ETag` longer than
    /// that is not stored (it only saves a request). Default: 1024.
    public var maximumCursorLength = 1024
    /// A long-poll (`players sync --watch`): the delta since the stored
    /// cursor asks the server to hold it up to this many seconds while
    /// there is nothing new (`wait=`, Docs/SyncProtocol.md); the
    /// request tells the transport (``HTTPRequest/serverHold``), whose
    /// stall limit and timeout then start after the wait. Default: nil,
    /// answer at once.
    public var waitSeconds: Int?
    /// While a long-poll waits (``waitSeconds``): returns when a local
    /// change waits to be pushed (``SyncEngine/SyncLocalChanges/next()``).
    /// The held request then ends at once, nothing of it merged, and the
    /// sync reports nothing new (`upToDate`); the caller syncs again to
    /// push the change (``SyncReplicator`` does, at once). Default: nil, the
    /// long-poll waits for the server alone.
    public var localChangeToPush: (@Sendable () async throws -> Void)?
    /// Called after each page, with the pages and bytes received so far.
    public var onPage: (@Sendable (_ pages: Int, _ bytes: Int) -> Void)?
    /// For ``pushThenPull(full:dryRun:)``: follows each push
    /// (``SyncEnginePusher/onProgress``).
    public var onPushProgress: (@Sendable (_ answered: Int, _ pending: Int) -> Void)?
    /// The clock of ``maximumDuration`` and of the report's duration:
    /// `ContinuousClock`, or in a test one that the test advances.
    public var clock: any Clock<Duration> = ContinuousClock()
    /// Whether a snapshot from another server's database than the one the
    /// stored cursor names (whatever its endpoint) may replace the synced
    /// data. Default: false, such a sync throws ``SyncError/otherServer``
    /// before anything is merged, as git refuses unrelated histories.
    public var allowsOtherServer = false

    public init(transport: any HTTPTransport, endpoint: URL, store: Store) {
        self.transport = transport
        self.endpoint = endpoint
        self.store = store
    }

    /// Syncs once. `full` takes a snapshot even with a stored cursor;
    /// `dryRun` reports what the merge would do without writing.
    public func sync(full: Bool = false, dryRun: Bool = false) async throws -> SyncReport {
        try await sync(full: full, dryRun: dryRun, startedAt: SyncStopwatch(clock))
    }

    /// Syncs once, within ``maximumDuration`` of `start`. When the store's
    /// synced data differs from the server's digests at the same cursor
    /// (``SyncDivergence``), a snapshot repairs it at once, and the report
    /// says what was found (``SyncReport/repaired``); a store that still
    /// differs after it throws ``SyncError/inconsistentServer``.
    package func sync(full: Bool, dryRun: Bool, startedAt start: SyncStopwatch) async throws -> SyncReport {
        let (report, divergence) = try await syncOnce(full: full, dryRun: dryRun, startedAt: start)
        guard let divergence else { return report }
        let (repair, remaining) = try await syncOnce(full: true, dryRun: false, startedAt: start)
        if let remaining {
            throw SyncError.inconsistentServer.with(detail: remaining.description)
        }
        let counts = report.counts
        return SyncReport(
            kind: .snapshot, upToDate: false, dryRun: false,
            counts: SyncCounts(inserted: counts.inserted + repair.inserted, updated: counts.updated + repair.updated,
                               deleted: counts.deleted + repair.deleted, unchanged: repair.unchanged,
                               requeued: counts.requeued + repair.requeued, refusedRows: repair.refusedRows),
            historyChange: report.historyChange ?? repair.historyChange, repaired: divergence,
            cursorBefore: report.cursorBefore, cursorAfter: repair.cursorAfter, pages: report.pages + repair.pages,
            bytesReceived: report.bytesReceived + repair.bytesReceived, durationSeconds: start.elapsedSeconds)
    }

    /// One fetch and merge; with how the store's synced data differs from
    /// the server's digests afterwards, if it does.
    private func syncOnce(full: Bool, dryRun: Bool, startedAt start: SyncStopwatch) async throws -> (SyncReport, SyncDivergence?) {
        let position = try await store.syncPosition()
        // A cursor longer than the limit, or not of this protocol (both
        // stored by an older version), is not sent: the sync takes a
        // snapshot, as for an unknown cursor.
        let cursorBefore = position.cursor(for: endpoint).flatMap { cursor in
            cursor.utf8.count <= maximumCursorLength && Self.isOfThisProtocol(cursor) ? cursor : nil
        }
        // Begun at the first page: an answer with none makes no staging.
        let staging = StagingOnDemand(store)
        do {
            let result = try await sync(into: staging, position: position, cursorBefore: cursorBefore, full: full, dryRun: dryRun,
                                        startedAt: start)
            await staging.discard()
            return result
        } catch {
            await staging.discard()
            throw error
        }
    }

    /// The fetch and the merge of ``syncOnce(full:dryRun:startedAt:)``.
    private func sync(into staging: StagingOnDemand<Store>, position: SyncPosition, cursorBefore: String?, full: Bool, dryRun: Bool,
                      startedAt start: SyncStopwatch) async throws -> (SyncReport, SyncDivergence?) {
        let fetched: Staged
        // The history the store last synced, from any endpoint: a
        // server behind a new URL must still be the same database.
        let known = position.cursor.flatMap { try? Store.Message.position(ofCursor: $0) }
        switch try await withinDeadline(from: start, {
            try await fetch(into: staging, cursorBefore: cursorBefore, etag: position.etag, full: full, known: known)
        }) {
        case .upToDate(let bytes):
            let report = SyncReport(
                kind: .delta, upToDate: true, dryRun: dryRun, counts: SyncCounts(), cursorBefore: cursorBefore,
                cursorAfter: cursorBefore, pages: 0, bytesReceived: bytes, durationSeconds: start.elapsedSeconds)
            return (report, dryRun ? nil : try await store.checkDigest())
        case .fetched(let staged):
            fetched = staged
        }
        let counts = try await staging.merge(fetched.fetch, from: endpoint, dryRun: dryRun)
        let report = SyncReport(
            kind: fetched.fetch.kind, upToDate: false, dryRun: dryRun, counts: counts, historyChange: fetched.fetch.historyChange,
            cursorBefore: cursorBefore,
            cursorAfter: fetched.fetch.cursor, pages: fetched.pages,
            bytesReceived: fetched.bytes, durationSeconds: start.elapsedSeconds)
        return (report, counts.divergence)
    }

    /// The result of fetching: nothing new, or staged pages to merge.
    private enum Fetched: Sendable {
        case upToDate(bytes: Int)
        case fetched(Staged)
    }

    /// Every page of a sync, staged: the kind and position to merge, and
    /// what the report counts.
    private struct Staged: Sendable {
        var fetch: StagedFetch
        var pages: Int
        var bytes: Int
    }

    /// Runs `body`, or throws ``SyncError/deadlineExceeded`` once
    /// ``maximumDuration`` has passed since `start` (the transfer under way
    /// is cancelled, and so is a retry's wait). Only network work is raced:
    /// a merge that has begun is never interrupted, so that a late deadline
    /// cannot hide a commit. `package`: `pushThenPull` bounds its push and
    /// its pull with one deadline.
    package func withinDeadline<T: Sendable>(from start: SyncStopwatch,
                                             _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        // A long-poll's wait comes before the deadline, as before the
        // transport's limits.
        let seconds = maximumDuration + TimeInterval(waitSeconds ?? 0)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await start.sleep(untilElapsed: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw SyncError.deadlineExceeded.with(detail: seconds.rounded() == seconds ? "\(Self.number(Int(seconds))) s" : "\(seconds) s")
            }
            return result
        }
    }

    // MARK: - Fetching

    /// The delta since the stored cursor, or a snapshot. `known`: the
    /// position of the stored cursor, from any endpoint.
    private func fetch(into staging: StagingOnDemand<Store>, cursorBefore: String?, etag: String?, full: Bool,
                       known: SyncCursorPosition?) async throws -> Fetched {
        guard !full, let cursorBefore else { return .fetched(try await snapshot(into: staging, known: known)) }
        switch try await pages(from: deltaURL(since: cursorBefore, wait: waitSeconds), etag: etag, expectsSnapshot: false, into: staging,
                               serverHold: waitSeconds ?? 0, after: try Store.Message.position(ofCursor: cursorBefore)) {
        case .notModified(let bytes):
            return .upToDate(bytes: bytes)
        case .waitEnded:
            return .upToDate(bytes: 0)
        case .gone:
            return .fetched(try await snapshot(into: staging, known: known))
        case .pages(let run):
            // The tag answers `since=cursorBefore`: it is worth keeping
            // only when the cursor did not move.
            let fetch = StagedFetch(kind: .delta, cursor: run.cursor, etag: run.cursor == cursorBefore ? run.etag : nil, digests: run.digests)
            return .fetched(Staged(fetch: fetch, pages: run.count, bytes: run.bytes))
        }
    }

    /// A snapshot, and for one of several pages the delta since its cursor.
    /// Its history is compared with `known`'s before any page is staged.
    private func snapshot(into staging: StagingOnDemand<Store>, known: SyncCursorPosition?) async throws -> Staged {
        guard case .pages(let run) = try await pages(from: endpoint, etag: nil, expectsSnapshot: true, into: staging,
                                                     known: known) else {
            throw SyncError.unexpectedStatus.with(status: 410, detail: "for a snapshot")
        }
        // Every page of a snapshot carries the same cursor (checked).
        let cursor = run.cursor
        guard run.count > 1 else {
            return Staged(fetch: StagedFetch(kind: .snapshot, cursor: cursor, etag: nil, historyChange: run.history?.change,
                                             sharedCounter: run.history?.sharedCounter, digests: run.digests),
                          pages: 1, bytes: run.bytes)
        }
        // Changes made while the pages were read.
        switch try await pages(from: deltaURL(since: cursor), etag: nil, expectsSnapshot: false, into: staging,
                               isCatchUp: true, firstPage: run.count + 1, heldBefore: run.held,
                               after: try Store.Message.position(ofCursor: cursor)) {
        case .pages(let catchUp):
            let fetch = StagedFetch(kind: .snapshot, cursor: catchUp.cursor, etag: catchUp.cursor == cursor ? catchUp.etag : nil,
                                    historyChange: run.history?.change, sharedCounter: run.history?.sharedCounter,
                                    digests: catchUp.digests)
            return Staged(fetch: fetch, pages: run.count + catchUp.count, bytes: run.bytes + catchUp.bytes)
        case .gone:
            throw SyncError.cursorForgotten.with(status: 410, detail: nil)
        case .notModified:
            throw SyncError.unexpectedStatus.with(status: 304, detail: "without If-None-Match")
        case .waitEnded:
            // A catch-up is not held: no local change can end it.
            throw SyncError.unexpectedStatus.with(detail: "a catch-up that was not sent")
        }
    }

    /// Pages staged from one URL on: how many, the last one's cursor, the
    /// first one's `ETag`, `bytes` received on the wire and `held` by the
    /// sync so far after decompression.
    private struct PageRun {
        var count: Int
        var cursor: String
        var etag: String?
        var bytes: Int
        var held: Int
        /// The last page's digests.
        var digests: [SyncTableDigest]?
        /// How a snapshot's history differs from the known one, if it does.
        var history: (change: SyncHistoryChange, sharedCounter: Int64?)?
    }

    private enum Pages {
        case pages(PageRun)
        case notModified(bytes: Int)
        case gone
        /// A long-poll ended for a local change (``localChangeToPush``).
        case waitEnded
    }

    /// Every page from `url` on, following `next` until a complete page,
    /// each staged as soon as it is checked. `firstPage` and `heldBefore`
    /// count what the sync already holds; `after` is the position a delta
    /// continues from, which each of its pages moves on.
    private func pages(from url: URL, etag: String?, expectsSnapshot: Bool, into staging: StagingOnDemand<Store>,
                       serverHold: Int = 0, isCatchUp: Bool = false, firstPage: Int = 1, heldBefore: Int = 0,
                       after: SyncCursorPosition? = nil, known: SyncCursorPosition? = nil) async throws -> Pages {
        var after = after
        var history: (change: SyncHistoryChange, sharedCounter: Int64?)?
        var count = 0
        var firstCursor: String?
        var bytes = 0
        var held = heldBefore
        var firstTag: String?
        var url = url
        var seen: Set<URL> = []
        while true {
            let pageNumber = firstPage + count
            guard pageNumber <= maximumPages else {
                throw SyncError.tooLarge.with(detail: "more than \(Self.number(maximumPages)) pages")
            }
            var headers = ["Accept": "application/json"]
            if count == 0, let etag { headers["If-None-Match"] = etag }
            // Only the first request of a long-poll is held by the server.
            let hold = count == 0 ? TimeInterval(serverHold) : 0
            let request = HTTPRequest(url: url, headers: headers, serverHold: hold)
            let response: HTTPResponse
            if hold > 0, let localChangeToPush {
                guard let answered = try await Self.send(request, through: transport, unless: localChangeToPush) else {
                    return .waitEnded
                }
                response = answered
            } else {
                response = try await transport.send(request)
            }
            bytes += response.bytesReceived
            switch response.status {
            case 200: break
            case 304 where count == 0 && etag != nil: return .notModified(bytes: bytes)
            case 410 where count == 0: return .gone
            default: throw Self.error(for: response)
            }
            held += response.body.count
            guard held <= maximumBytes else {
                throw SyncError.tooLarge.with(detail: "more than \(Self.size(maximumBytes)) at page \(pageNumber)")
            }
            if count == 0, let tag = response.headers["etag"], tag.utf8.count <= maximumCursorLength { firstTag = tag }
            let page: Store.Message
            do {
                page = try store.decodePage(response.body)
            } catch let error as SyncPayloadError {
                throw error.on(page: pageNumber)
            }
            let cursor = try check(page, expectsSnapshot: expectsSnapshot, firstCursor: firstCursor, pageNumber: pageNumber)
            do throws(SyncPayloadError) {
                after = try checkVersions(page, cursor: cursor, after: after)
            } catch {
                throw error.on(page: pageNumber)
            }
            if count == 0, page.isSnapshot, let known {
                history = try historyChange(page, cursor: cursor, known: known)
            }
            try await staging.stage(page, number: pageNumber, isCatchUp: isCatchUp)
            count += 1
            firstCursor = firstCursor ?? cursor
            onPage?(count, bytes)
            if page.isComplete {
                return .pages(PageRun(count: count, cursor: cursor, etag: firstTag, bytes: bytes, held: held, digests: page.serverDigests,
                                      history: history))
            }
            let next = try nextURL(page.next, pageNumber: pageNumber)
            guard seen.insert(next).inserted else {
                throw SyncPayloadError(page: pageNumber, path: "$.next", "leads back to an earlier page")
            }
            url = next
        }
    }

    /// Sends a long-poll's held request, or ends it (nil, the transfer
    /// abandoned) when `localChange` returns first.
    private static func send(_ request: HTTPRequest, through transport: any HTTPTransport,
                             unless localChange: @escaping @Sendable () async throws -> Void) async throws -> HTTPResponse? {
        try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { try await transport.send(request) }
            group.addTask {
                try await localChange()
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// The protocol's rules that hold across pages; returns the page's
    /// cursor.
    private func check(_ page: Store.Message, expectsSnapshot: Bool, firstCursor: String?, pageNumber: Int) throws -> String {
        guard page.isSnapshot == expectsSnapshot else {
            throw SyncPayloadError(page: pageNumber, path: "$.kind", "expected \(expectsSnapshot ? "snapshot" : "delta")")
        }
        guard let cursor = page.cursor, !cursor.isEmpty else {
            throw SyncPayloadError(page: pageNumber, path: "$.cursor", "missing")
        }
        guard cursor.utf8.count <= maximumCursorLength else {
            throw SyncPayloadError(page: pageNumber, path: "$.cursor", "longer than \(maximumCursorLength) bytes")
        }
        if page.isSnapshot, let firstCursor, firstCursor != cursor {
            throw SyncPayloadError(page: pageNumber, path: "$.cursor", "differs from the first page's")
        }
        return cursor
    }

    /// Checks that the page's versions lie between the position it
    /// continues from (`after`, for a delta: a page of the same history)
    /// and its own cursor's, which must not go back; returns the position
    /// the next delta page continues from. A protocol with opaque cursors
    /// checks nothing.
    private func checkVersions(_ page: Store.Message, cursor: String,
                               after: SyncCursorPosition?) throws(SyncPayloadError) -> SyncCursorPosition? {
        guard let position = try Store.Message.position(ofCursor: cursor) else { return after }
        if page.isSnapshot {
            try page.checkVersions(above: nil, atMost: position.counter)
            return after
        }
        if let after {
            guard position.isInHistory(of: after) else {
                throw SyncPayloadError(path: "$.cursor", "belongs to another history than the cursor the page continues from")
            }
            guard position.counter >= after.counter else {
                throw SyncPayloadError(path: "$.cursor", "goes back, from \(after.counter) to \(position.counter)")
            }
        }
        try page.checkVersions(above: after?.counter, atMost: position.counter)
        return position
    }

    /// How the history of a snapshot's first page differs from the `known`
    /// one, before the page is staged: another server's database throws
    /// ``SyncError/otherServer`` unless ``allowsOtherServer``; another
    /// epoch of the same one means that its history went back.
    private func historyChange(_ page: Store.Message, cursor: String,
                               known: SyncCursorPosition) throws -> (change: SyncHistoryChange, sharedCounter: Int64?)? {
        guard let position = try Store.Message.position(ofCursor: cursor) else { return nil }
        if position.server != known.server {
            guard allowsOtherServer else {
                throw SyncError.otherServer.with(detail: "it holds database \(position.server); this one synced with \(known.server)")
            }
            return (.otherServer, nil)
        }
        guard position.epoch != known.epoch else { return nil }
        return (.wentBack, page.sharedCounter(with: known))
    }

    /// Whether the protocol reads `cursor` (every cursor, when its cursors
    /// are opaque).
    private static func isOfThisProtocol(_ cursor: String) -> Bool {
        do {
            _ = try Store.Message.position(ofCursor: cursor)
            return true
        } catch {
            return false
        }
    }

    /// The URL of a `next` link: on the endpoint's server, never elsewhere.
    private func nextURL(_ next: String?, pageNumber: Int) throws -> URL {
        guard let next, !next.isEmpty else {
            throw SyncPayloadError(page: pageNumber, path: "$.next", "missing on a page that is not complete")
        }
        guard let url = URL(string: next, relativeTo: endpoint)?.absoluteURL,
              url.scheme == endpoint.scheme, url.host == endpoint.host, url.port == endpoint.port else {
            throw SyncPayloadError(page: pageNumber, path: "$.next", "not a link on the same server")
        }
        return url
    }

    private func deltaURL(since cursor: String, wait: Int? = nil) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: true)!
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "since", value: cursor)]
            + (wait.map { [URLQueryItem(name: "wait", value: String($0))] } ?? [])
        return components.url!
    }

    /// The error for a status other than 200, 304 and 410.
    public static func error(for response: HTTPResponse) -> SyncError {
        let status = response.status
        let message = serverMessage(response.body)
        switch status {
        case 401: return SyncError.unauthorized.with(status: status, detail: message)
        case 403: return SyncError.forbidden.with(status: status, detail: message)
        case 429, 503:
            let retryAfter = response.retryAfter()
            return SyncError.serverBusy.with(status: status, detail: retryAfter.map { "retry after \(Int($0.rounded(.up))) s" } ?? message,
                                             retryAfter: retryAfter)
        case 500...599: return SyncError.serverError.with(status: status, detail: message)
        case 412: return SyncError.otherServer.with(status: status, detail: message)
        case 400...499: return SyncError.requestRefused.with(status: status, detail: message)
        default: return SyncError.unexpectedStatus.with(status: status, detail: nil)
        }
    }

    /// The `error.message` of a JSON error body: at most 200 characters,
    /// control characters escaped (``PrintableText``), so that it prints
    /// safely.
    static func serverMessage(_ body: Data) -> String? {
        guard let message = try? JSONDecoder().decode(ServerErrorBody.self, from: body).error.message else { return nil }
        let short = message.count > 200 ? message.prefix(200) + "…" : message
        return PrintableText.escaping(short)
    }

    /// `10,000`: a limit as the documentation writes it.
    static func number(_ value: Int) -> String {
        var digits = String(value)
        var position = digits.endIndex
        while digits.distance(from: digits.startIndex, to: position) > 3 {
            position = digits.index(position, offsetBy: -3)
            digits.insert(",", at: position)
        }
        return digits
    }

    /// `256 MiB`, or `1,000 bytes` for a size that is not a whole number
    /// of MiB.
    static func size(_ bytes: Int) -> String {
        bytes % 1_048_576 == 0 ? "\(number(bytes / 1_048_576)) MiB" : "\(number(bytes)) bytes"
    }
}

/// `{"error":{"message":"…"}}`, the protocol's error body.
private struct ServerErrorBody: Decodable {
    struct Inner: Decodable { var message: String }
    var error: Inner
}
