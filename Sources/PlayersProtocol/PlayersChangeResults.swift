import Foundation

/// The answer to `POST /v1/changes` (Docs/SyncProtocol.md): one result per
/// change of the batch, in the same order.
///
/// ```swift
/// let results = try PlayersChangeResults.decode(response.body, answering: batch)
/// for result in results.results where result.status == .conflict { … }
/// ```
public struct PlayersChangeResults: Codable, Equatable, Sendable {
    /// What the server did with one change.
    public struct Result: Codable, Equatable, Sendable {
        public enum Status: String, Codable, Sendable {
            /// The change is on the server (now, or the first time this
            /// mutation id was sent).
            case applied
            /// The player changed on the server since the change's base
            /// version: the server's state stands, and the change was not
            /// applied.
            case conflict
        }

        public var mutationID: UUID
        public var status: Status
        /// Applied: the version the change gave the player (a delete: the
        /// version of its tombstone). Absent for the delete of a player
        /// that the server had already forgotten.
        public var version: Int64?
        /// Conflict: the server's live player; absent when the player is
        /// deleted on the server (then `version` is its tombstone's, if
        /// the server still has it).
        public var player: PlayersPayload.PlayerEntry?

        public init(mutationID: UUID, status: Status, version: Int64? = nil, player: PlayersPayload.PlayerEntry? = nil) {
            self.mutationID = mutationID
            self.status = status
            self.version = version
            self.player = player
        }
    }

    public var protocolVersion: Int
    public var results: [Result]

    public init(results: [Result]) {
        protocolVersion = PlayersPayload.currentProtocolVersion
        self.results = results
    }

    /// Decodes the server's answer to `batch` and checks it: one result per
    /// change, in order, with its mutation id; an applied save carries its
    /// version, a conflict's player has the change's uuid and passes
    /// ``PlayerValidator``. Throws for the first bad element, by its JSON
    /// path.
    public static func decode(_ data: Data, answering batch: PlayersChangeBatch) throws(PlayersPayloadError) -> PlayersChangeResults {
        let answer = try PlayersPayloadError.decoding(PlayersChangeResults.self, from: data)
        guard answer.protocolVersion == PlayersPayload.currentProtocolVersion else {
            throw PlayersPayloadError.unsupportedVersion(answer.protocolVersion)
        }
        guard answer.results.count == batch.changes.count else {
            throw PlayersPayloadError(path: "$.results", "\(answer.results.count) results for \(batch.changes.count) changes")
        }
        for (index, (result, change)) in zip(answer.results, batch.changes).enumerated() {
            let path = "$.results[\(index)]"
            guard result.mutationID == change.mutationID else {
                throw PlayersPayloadError(path: "\(path).mutationID", "not the mutation id of change \(index)")
            }
            if let version = result.version, version <= 0 {
                throw PlayersPayloadError(path: "\(path).version", "not positive")
            }
            switch result.status {
            case .applied:
                if change.kind == .save, result.version == nil {
                    throw PlayersPayloadError(path: "\(path).version", "missing")
                }
            case .conflict:
                guard let player = result.player else { break }
                guard player.uuid == change.uuid else {
                    throw PlayersPayloadError(path: "\(path).player.uuid", "not the uuid of change \(index)")
                }
                guard let version = player.version, version > 0 else {
                    throw PlayersPayloadError(path: "\(path).player.version", "missing or not positive")
                }
                do {
                    _ = try PlayerValidator.validPlayer(name: player.name, score: player.score)
                } catch {
                    throw PlayersPayloadError(path: "\(path).player.\(error.field)", error.problem)
                }
            }
        }
        return answer
    }

    /// The JSON of the answer: UTF-8, sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
