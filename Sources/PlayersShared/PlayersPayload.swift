import Foundation

/// A message of the players sync protocol, version 1 (Docs/SyncProtocol.md):
/// a snapshot of all live players, or a delta of the changes after a
/// cursor. `players export --format json` writes a snapshot.
public struct PlayersPayload: Codable, Equatable, Sendable {
    /// The version of the protocol this code reads and writes. A payload of
    /// another version is refused, not misread.
    public static let currentProtocolVersion = 1

    public enum Kind: String, Codable, Sendable {
        /// All live players.
        case snapshot
        /// The changes after a cursor.
        case delta
    }

    /// A live player.
    public struct PlayerEntry: Codable, Equatable, Sendable {
        public var uuid: UUID
        public var name: String
        public var score: Int
        /// The server's change counter of the player's last change; absent
        /// for a player that was never synced (local exports only).
        public var version: Int64?

        public init(uuid: UUID, name: String, score: Int, version: Int64?) {
            self.uuid = uuid
            self.name = name
            self.score = score
            self.version = version
        }
    }

    /// A deleted player.
    public struct Tombstone: Codable, Equatable, Sendable {
        public var uuid: UUID
        public var version: Int64

        public init(uuid: UUID, version: Int64) {
            self.uuid = uuid
            self.version = version
        }
    }

    public var protocolVersion: Int
    public var kind: Kind
    /// Whether this message holds everything up to `cursor` (false when
    /// more pages follow at `next`).
    public var complete: Bool
    /// The server's position after this message (``PlayersCursor``);
    /// absent in local exports.
    public var cursor: String?
    /// The next page, when `complete` is false.
    public var next: String?
    public var players: [PlayerEntry]
    public var tombstones: [Tombstone]
    /// The epochs of the server database's history, oldest first, the last
    /// being the cursor's: on every page of a players server's snapshot;
    /// absent in deltas and local exports.
    public var epochs: [PlayersEpoch]?

    private enum CodingKeys: String, CodingKey {
        case protocolVersion, kind, complete, cursor, next, players, tombstones, epochs
    }

    /// Decodes the protocol version first, and the rest only if this
    /// program reads that version: one pass over the JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try container.decode(Int.self, forKey: .protocolVersion)
        guard protocolVersion == Self.currentProtocolVersion else {
            throw PlayersPayloadError.UnsupportedProtocolVersion(version: protocolVersion)
        }
        kind = try container.decode(Kind.self, forKey: .kind)
        complete = try container.decode(Bool.self, forKey: .complete)
        cursor = try container.decodeIfPresent(String.self, forKey: .cursor)
        next = try container.decodeIfPresent(String.self, forKey: .next)
        players = try container.decode([PlayerEntry].self, forKey: .players)
        tombstones = try container.decode([Tombstone].self, forKey: .tombstones)
        epochs = try container.decodeIfPresent([PlayersEpoch].self, forKey: .epochs)
    }

    public init(kind: Kind, complete: Bool = true, cursor: String? = nil, next: String? = nil,
                players: [PlayerEntry], tombstones: [Tombstone] = [], epochs: [PlayersEpoch]? = nil) {
        protocolVersion = Self.currentProtocolVersion
        self.kind = kind
        self.complete = complete
        self.cursor = cursor
        self.next = next
        self.players = players
        self.tombstones = tombstones
        self.epochs = epochs
    }

    /// The JSON of the message: UTF-8, sorted keys.
    public func jsonData(prettyPrinted: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// Decodes a message of the current protocol version, checking its
    /// JSON types, UUIDs and kind, and naming the first bad element by its
    /// JSON path. The rules of a server's message are checked by
    /// ``validate()``.
    ///
    /// ```swift
    /// let payload = try PlayersPayload.decode(Data(#"{"protocolVersion":1,"kind":"snapshot","complete":true,"players":[],"tombstones":[]}"#.utf8))
    /// ```
    public static func decode(_ data: Data) throws(PlayersPayloadError) -> PlayersPayload {
        try PlayersPayloadError.decoding(PlayersPayload.self, from: data)
    }
}
