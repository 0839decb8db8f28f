import Foundation
import Hummingbird
import PlayersProtocol
import PlayersServerStore

extension PlayersAPI {
    /// `POST /v1/players`: creates a player (with the client's uuid, if
    /// given); 201 with the player, or 409 when the uuid is a live
    /// player's or a deleted one's (the rule of a pushed creation).
    @Sendable func createPlayer(_ request: Request, _ context: PlayersRequestContext) async throws -> EditedResponse<PlayersPayload.PlayerEntry> {
        let input = try PlayerInput.parse(try await body(request, upTo: configuration.maximumBodySize), requireAll: true)
        if input.version != nil {
            throw APIError.badRequest("'version' is for PUT: a creation has none")
        }
        let uuid = input.uuid ?? UUID()
        switch try await store.create(uuid: uuid, name: input.name!, score: input.score!) {
        case .created(let player):
            return EditedResponse(status: .created, response: player.entry)
        case .taken(let version):
            throw APIError(.conflict, "a player already has the uuid \(uuid.uuidString) (version \(version))")
        case .deleted(let version):
            throw APIError(.conflict, "the player \(uuid.uuidString) was deleted (version \(version)): a deleted player's uuid "
                + "is never reused; to bring it back, push a save with base version \(version) (POST /v1/changes)")
        }
    }

    /// `PUT /v1/players/{uuid}`: changes the name or score; with
    /// `version`, refuses (409) if the player changed since that version.
    @Sendable func updatePlayer(_ request: Request, _ context: PlayersRequestContext) async throws -> PlayersPayload.PlayerEntry {
        let uuid = try pathUUID(context)
        let input = try PlayerInput.parse(try await body(request, upTo: configuration.maximumBodySize), requireAll: false)
        if input.uuid != nil && input.uuid != uuid {
            throw APIError.badRequest("the body's uuid differs from the path's")
        }
        switch try await store.update(uuid, name: input.name, score: input.score, expectedVersion: input.version) {
        case .updated(let player):
            return player.entry
        case .notFound:
            throw APIError.notFound("no player has the uuid \(uuid.uuidString)")
        case .conflict(let current):
            throw APIError(.conflict, "the player changed since version \(input.version ?? 0): its version is \(current)")
        }
    }

    /// `DELETE /v1/players/{uuid}`: 204, or 404.
    @Sendable func deletePlayer(_ request: Request, _ context: PlayersRequestContext) async throws -> HTTPResponse.Status {
        let uuid = try pathUUID(context)
        guard try await store.delete(uuid) else {
            throw APIError.notFound("no player has the uuid \(uuid.uuidString)")
        }
        return .noContent
    }

    /// `POST /demo/refresh` (with `--demo` only): the demo's random
    /// changes; `{"version":"…"}`, the counter after them.
    @Sendable func refreshDemo(_ request: Request, _ context: PlayersRequestContext) async throws -> [String: String] {
        ["version": String(try await store.refresh())]
    }
}
