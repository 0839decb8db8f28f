import Foundation
import SyncSchema

/// The body of `POST /v1/changes` (Docs/SyncProtocol.md): local changes
/// that a client pushes, in the order it made them, each with the
/// mutation id that makes its retry harmless.
///
/// ```swift
/// let batch = PlayersChangeBatch(changes: [
///     .init(mutationID: UUID(), uuid: player.uuid, kind: .save, name: "Arthur", score: 100, baseVersion: player.version),
/// ])
/// let body = try batch.jsonData()
/// ```
public struct PlayersChangeBatch: Codable, Equatable, Sendable {
    /// The most changes one batch holds.
    public static let maximumChanges = 500

    /// One local change of a player.
    public struct Change: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable {
            /// Creates the player, or changes its name and score.
            case save
            case delete
        }

        /// Made by the client when it recorded the change, random and
        /// unique: the server applies a change with a given mutation id
        /// once, and answers a retry with the answer it gave the first
        /// time.
        public var mutationID: UUID
        public var uuid: UUID
        public var kind: Kind
        /// The new name and score of a save; absent for a delete.
        public var name: String?
        public var score: Int?
        /// The server version of the player that the change was made on;
        /// absent when the client has never seen the player on the server
        /// (it created it). The server applies the change only when the
        /// player's version is still this one: otherwise it is a conflict.
        public var baseVersion: Int64?

        public init(mutationID: UUID, uuid: UUID, kind: Kind, name: String? = nil, score: Int? = nil, baseVersion: Int64?) {
            self.mutationID = mutationID
            self.uuid = uuid
            self.kind = kind
            self.name = name
            self.score = score
            self.baseVersion = baseVersion
        }
    }

    public var protocolVersion: Int
    public var changes: [Change]
    /// The identity of the server database that the client synced with
    /// (``PlayersCursor/server``), if it did: a server of another identity
    /// refuses the batch (412) rather than take changes meant for another
    /// database.
    public var server: UUID?

    public init(changes: [Change], server: UUID? = nil) {
        protocolVersion = PlayersPayload.currentProtocolVersion
        self.changes = changes
        self.server = server
    }

    /// The JSON of the batch: UTF-8, sorted keys.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Decodes a batch and checks it: strict JSON (``StrictJSON``: no
    /// unknown or repeated key, integers written as integers), the protocol version, at most
    /// ``maximumChanges`` changes, a name and score by
    /// ``PlayerValidator`` in each save and none in a delete, a base
    /// version that is positive, no mutation id and no player twice.
    /// Throws for the first bad element, by its JSON path.
    public static func decode(_ data: Data) throws(PlayersPayloadError) -> PlayersChangeBatch {
        let batch = try PlayersPayloadError.decoding(PlayersChangeBatch.self, from: data)
        do { try StrictJSON.check(data, keys: keys) } catch { throw PlayersPayloadError(error) }
        try batch.validate()
        return batch
    }

    /// The keys of a batch and of its changes: any other is refused.
    static let keys: [String: Set<String>] = [
        "$": ["protocolVersion", "changes", "server"],
        "$.changes[]": ["mutationID", "uuid", "kind", "name", "score", "baseVersion"],
    ]

    /// The rules of ``decode(_:)`` that the JSON decoder does not check.
    public func validate() throws(PlayersPayloadError) {
        guard protocolVersion == PlayersPayload.currentProtocolVersion else {
            throw PlayersPayloadError.unsupportedVersion(protocolVersion)
        }
        guard changes.count <= Self.maximumChanges else {
            throw PlayersPayloadError(path: "$.changes", "more than \(Self.maximumChanges) changes")
        }
        var mutationIDs = Set<UUID>()
        var players = Set<UUID>()
        for (index, change) in changes.enumerated() {
            let path = "$.changes[\(index)]"
            switch change.kind {
            case .save:
                guard let name = change.name else { throw PlayersPayloadError(path: "\(path).name", "missing") }
                guard let score = change.score else { throw PlayersPayloadError(path: "\(path).score", "missing") }
                do {
                    _ = try PlayerValidator.validPlayer(name: name, score: score)
                } catch {
                    throw PlayersPayloadError(path: "\(path).\(error.field)", "\(error.problem): it must be \(error.rule)")
                }
            case .delete:
                if change.name != nil { throw PlayersPayloadError(path: "\(path).name", "not allowed in a delete") }
                if change.score != nil { throw PlayersPayloadError(path: "\(path).score", "not allowed in a delete") }
            }
            if let baseVersion = change.baseVersion, baseVersion <= 0 {
                throw PlayersPayloadError(path: "\(path).baseVersion", "not positive")
            }
            guard mutationIDs.insert(change.mutationID).inserted else {
                throw PlayersPayloadError(path: "\(path).mutationID", "\(change.mutationID.uuidString) appears twice")
            }
            guard players.insert(change.uuid).inserted else {
                throw PlayersPayloadError(path: "\(path).uuid", "\(change.uuid.uuidString) appears twice: send one change per player in a batch")
            }
        }
    }
}
