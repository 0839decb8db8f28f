import Foundation
import Hummingbird
import PlayersProtocol
import PlayersServerStore
import SyncServer

/// A page of `GET /v1/players` as the sync protocol sends it, encoded
/// once (the long-polls that one commit wakes share one page,
/// ``SharedDeltaReads``), with its strong ETag: a request whose
/// `If-None-Match` is that tag gets `304 Not Modified` with no body.
struct PlayersPage: ResponseGenerator, Sendable {
    /// The message in JSON, as ``JSONEncoder/api`` writes it.
    var body: ByteBuffer
    var etag: String

    /// A page of the snapshot; `cursor` is the one of its first page, if
    /// this is a later one: all pages of one snapshot carry it. A later
    /// page leaves out the players changed after that cursor: a page's
    /// versions are at most its cursor (clients refuse any other), and the
    /// delta since the cursor, which a client fetches after the last page,
    /// brings them.
    init(_ page: SnapshotPage, limit: Int, after: UUID?, cursor: Int64?, history: ServerHistory) throws {
        let counter = cursor ?? page.version
        let cursor = history.cursor(at: counter)
        let next = page.isLast ? nil : page.players.last.map { "/v1/players?limit=\(limit)&after=\($0.uuid.uuidString)&at=\(cursor)" }
        // The digest is the state at the page's read: the snapshot's
        // cursor only when nothing changed since its first page.
        body = Self.encoded(PlayersPayload(
            kind: .snapshot, complete: page.isLast, cursor: cursor.description, next: next,
            players: page.players.filter { $0.version <= counter }.map(\.entry), epochs: history.epochs,
            digest: page.isLast && page.version == counter ? page.digest : nil))
        etag = "\"snapshot-\(after?.uuidString ?? "")-\(limit)-\(cursor)-\(page.version)\""
    }

    /// A page of the delta after `since`.
    init(_ page: DeltaPage, since: Int64, limit: Int, history: ServerHistory) throws {
        var players: [PlayersPayload.PlayerEntry] = []
        var tombstones: [PlayersPayload.Tombstone] = []
        for change in page.changes {
            switch change {
            case .player(let player): players.append(player.entry)
            case .tombstone(let tombstone): tombstones.append(.init(uuid: tombstone.uuid, version: tombstone.version))
            }
        }
        let cursor = history.cursor(at: page.version).description
        body = Self.encoded(PlayersPayload(
            kind: .delta, complete: page.isLast, cursor: cursor,
            next: page.isLast ? nil : "/v1/players?since=\(cursor)&limit=\(limit)",
            players: players, tombstones: tombstones, digest: page.isLast ? page.digest : nil))
        // Later changes can move players out of an older page: the
        // server's counter is part of the tag.
        etag = "\"delta-\(history.cursor(at: since))-\(limit)-\(page.version)-\(page.serverVersion)\""
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        if request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        // The headers of Hummingbird's JSON responses.
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json; charset=utf-8",
                .contentLength: String(body.readableBytes),
                .eTag: etag,
            ],
            body: ResponseBody(byteBuffer: body))
    }

    /// The message as ``JSONEncoder/api`` writes it, written without it
    /// (``PlayersPayload/jsonBytes()``).
    private static func encoded(_ message: PlayersPayload) -> ByteBuffer {
        ByteBuffer(bytes: message.jsonBytes())
    }
}
