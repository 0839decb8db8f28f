import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOFoundationCompat
import Players
import PlayersProtocol
import Synchronization
import PlayersServerCore

/// The HTTP API of the players server, version 1 (Docs/SyncProtocol.md).
public struct PlayersAPI: Sendable {
    let store: ServerStore
    let configuration: ServerConfiguration
    /// When tombstones were last purged.
    private let lastPurge = PurgeClock()

    public init(store: ServerStore, configuration: ServerConfiguration) {
        self.store = store
        self.configuration = configuration
    }

    /// Purges expired tombstones, at most once a minute, before a delta is
    /// answered: a cursor older than the retention then gets 410.
    func purgeTombstonesIfDue() throws {
        let now = Date()
        let isDue = lastPurge.date.withLock { last -> Bool in
            guard now.timeIntervalSince(last) >= 60 else { return false }
            last = now
            return true
        }
        if isDue { try store.purgeTombstones(olderThan: configuration.tombstoneRetention, now: now) }
    }

    /// The router, with request logging, the `Host` check, authentication
    /// and the cross-site check of changes.
    public func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: AllowedHostMiddleware(configuration: configuration))
        router.get("/healthz") { _, _ in
            jsonResponse(["status": "ok"])
        }
        let v1 = router.group("/v1").add(middleware: BearerTokenMiddleware(token: configuration.token))
        // A known path with another method: 405, with the methods it accepts.
        for (path, allowed) in [("/players", "GET, POST"), ("/players/:uuid", "GET, PUT, DELETE")] {
            let allowedMethods = Set(allowed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] where !allowedMethods.contains(method.rawValue) {
                v1.on(RouterPath(path), method: method) { _, _ -> Response in
                    throw APIError(.methodNotAllowed, "\(method.rawValue) is not allowed here: use \(allowed)", headers: [.allow: allowed])
                }
            }
        }
        let v1Changes = v1.group().add(middleware: ChangeRequestMiddleware(token: configuration.token))
        v1.get("/players") { request, _ in try await players(request) }
        v1.get("/players/:uuid") { _, context in try await player(context) }
        v1Changes.post("/players") { request, _ in try await create(request) }
        v1Changes.put("/players/:uuid") { request, context in try await update(request, context) }
        v1Changes.delete("/players/:uuid") { _, context in try await delete(context) }
        if configuration.servesDemoRefresh {
            // Outside the versioned API: random changes are for the demo only.
            router.group("/demo")
                .add(middleware: BearerTokenMiddleware(token: configuration.token))
                .add(middleware: ChangeRequestMiddleware(token: configuration.token))
                .post("/refresh") { _, _ in
                    let version = try await StoreThreads.write { [store] in
                        try store.refresh()
                        return try store.currentVersion()
                    }
                    return jsonResponse(["version": String(version)])
                }
        }
        return router
    }

    // MARK: - GET /v1/players

    /// A snapshot page, or a delta page with `since`.
    func players(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let limit = try pageSize(query.get("limit"))
        let message: PlayersPayload
        let etag: String
        if let sinceText = query.get("since") {
            guard let since = Int64(sinceText), since >= 0 else {
                throw APIError.badRequest("'since' must be a cursor returned by this server")
            }
            let page = try await StoreThreads.write { [self] in
                try purgeTombstonesIfDue()
                return try store.delta(since: since, limit: limit)
            }
            guard let page else { throw APIError.gone }
            var players: [PlayersPayload.PlayerEntry] = []
            var tombstones: [PlayersPayload.Tombstone] = []
            for change in page.changes {
                switch change {
                case .player(let player): players.append(player.entry)
                case .tombstone(let tombstone): tombstones.append(.init(uuid: tombstone.uuid, version: tombstone.version))
                }
            }
            let cursor = String(page.version)
            message = PlayersPayload(
                kind: .delta, complete: page.isLast, cursor: cursor,
                next: page.isLast ? nil : "/v1/players?since=\(cursor)&limit=\(limit)",
                players: players, tombstones: tombstones)
            // Later changes can move players out of an older page: the
            // server's counter is part of the tag.
            etag = "\"delta-\(since)-\(limit)-\(page.version)-\(page.serverVersion)\""
        } else {
            let after = try query.get("after").map { text -> UUID in
                guard let uuid = UUID(uuidString: text) else { throw APIError.badRequest("'after' must be a player uuid") }
                return uuid
            }
            let page = try await StoreThreads.read { [store] in try store.snapshot(limit: limit, afterUUID: after) }
            // All pages of one snapshot carry the cursor of its first page.
            let cursor = try query.get("at").map { text -> String in
                guard Int64(text) != nil else { throw APIError.badRequest("'at' must be a cursor returned by this server") }
                return text
            } ?? String(page.version)
            let next = page.isLast ? nil : page.players.last.map { "/v1/players?limit=\(limit)&after=\($0.uuid.uuidString)&at=\(cursor)" }
            message = PlayersPayload(kind: .snapshot, complete: page.isLast, cursor: cursor, next: next,
                                     players: page.players.map(\.entry))
            etag = "\"snapshot-\(after?.uuidString ?? "")-\(limit)-\(cursor)-\(page.version)\""
        }
        if request.headers[.ifNoneMatch] == etag {
            var headers = HTTPFields()
            headers[.eTag] = etag
            return Response(status: .notModified, headers: headers)
        }
        var response = jsonResponse(try message.jsonData())
        response.headers[.eTag] = etag
        return response
    }

    func pageSize(_ text: String?) throws -> Int {
        guard let text else { return configuration.defaultPageSize }
        guard let limit = Int(text), (1...configuration.maximumPageSize).contains(limit) else {
            throw APIError.badRequest("'limit' must be an integer from 1 to \(configuration.maximumPageSize)")
        }
        return limit
    }

    // MARK: - Writes

    /// The JSON body of a request, at most `maximumBodySize` bytes.
    func body(_ request: Request) async throws -> Data {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json") else {
            throw APIError(.unsupportedMediaType, "send the body as application/json")
        }
        do {
            var request = request
            return Data(buffer: try await request.collectBody(upTo: configuration.maximumBodySize))
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "the body is larger than \(configuration.maximumBodySize) bytes")
        }
    }

    /// `POST /v1/players`: creates a player (with the client's uuid, if given).
    func create(_ request: Request) async throws -> Response {
        let input = try PlayerInput.parse(try await body(request), requireAll: true)
        let player = try await StoreThreads.write { [store] () throws -> ServerPlayer? in
            if let uuid = input.uuid, try store.player(uuid) != nil { return nil }
            return try store.insert(uuid: input.uuid ?? UUID(), name: input.name!, score: input.score!)
        }
        guard let player else {
            throw APIError(.conflict, "a player already has the uuid \(input.uuid?.uuidString ?? "")")
        }
        return jsonResponse(try JSONEncoder.api.encode(player.entry), status: .created)
    }

    /// `PUT /v1/players/{uuid}`: changes the name or score; with
    /// `version`, refuses (409) if the player changed since that version.
    func update(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let uuid = try pathUUID(context)
        let input = try PlayerInput.parse(try await body(request), requireAll: false)
        if input.uuid != nil && input.uuid != uuid {
            throw APIError.badRequest("the body's uuid differs from the path's")
        }
        let outcome = try await StoreThreads.write { [store] in
            try store.update(uuid, name: input.name, score: input.score, expectedVersion: input.version)
        }
        switch outcome {
        case .updated(let player):
            return jsonResponse(try JSONEncoder.api.encode(player.entry))
        case .notFound:
            throw APIError.notFound("no player has the uuid \(uuid.uuidString)")
        case .conflict(let current):
            throw APIError(.conflict, "the player changed since version \(input.version ?? 0): its version is \(current)")
        }
    }

    /// `DELETE /v1/players/{uuid}`: 204, or 404.
    func delete(_ context: BasicRequestContext) async throws -> Response {
        let uuid = try pathUUID(context)
        guard try await StoreThreads.write({ [store] in try store.delete(uuid) }) else {
            throw APIError.notFound("no player has the uuid \(uuid.uuidString)")
        }
        return Response(status: .noContent)
    }

    func pathUUID(_ context: BasicRequestContext) throws -> UUID {
        guard let text = context.parameters.get("uuid"), let uuid = UUID(uuidString: text) else {
            throw APIError.badRequest("the path must end with a player uuid")
        }
        return uuid
    }

    // MARK: - GET /v1/players/{uuid}

    func player(_ context: BasicRequestContext) async throws -> Response {
        let uuid = try pathUUID(context)
        guard let player = try await StoreThreads.read({ [store] in try store.player(uuid) }) else {
            throw APIError.notFound("no player has the uuid \(uuid.uuidString)")
        }
        return jsonResponse(try JSONEncoder.api.encode(player.entry))
    }
}

/// A JSON response.
func jsonResponse(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
}

func jsonResponse(_ object: [String: String]) -> Response {
    jsonResponse((try? JSONEncoder.api.encode(object)) ?? Data("{}".utf8))
}

/// The time of the last tombstone purge, shared by the copies of the API.
/// `Sendable` through its mutex.
final class PurgeClock: Sendable {
    let date = Mutex<Date>(.distantPast)
}
