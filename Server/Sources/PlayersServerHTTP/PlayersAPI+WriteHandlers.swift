import Foundation
import Hummingbird
import PlayersProtocol
import PlayersServerStore

extension PlayersAPI {
    /// `POST /v1/players`: creates a player (with the client's uuid, if
    /// given); 201 with the player, or 409 when the uuid is taken.
    @Sendable func createPlayer(_ request: Request, _ context: PlayersRequestContext) async throws -> EditedResponse<PlayersPayload.PlayerEntry> {
        let input = try PlayerInput.parse(try await body(request, upTo: configuration.maximumBodySize), requireAll: true)
        guard let player = try await store.create(uuid: input.uuid ?? UUID(), name: input.name!, score: input.score!) else {
            throw APIError(.conflict, "a player already has the uuid \(input.uuid?.uuidString ?? "")")
        }
        return EditedResponse(status: .created, response: player.entry)
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
