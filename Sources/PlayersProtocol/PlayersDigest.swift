import Foundation
import SyncSchema

/// The digest of a players server's state at a cursor: how many live
/// players it holds, and the XOR of one 64-bit hash per player
/// (``hash(uuid:name:score:version:)``), as 16 lowercase hexadecimal
/// digits. A server sends it on the page that completes an answer
/// (`digest`, Docs/SyncProtocol.md); a client whose outbox is empty
/// compares it with the digest of its own synced players, and repairs
/// itself with a snapshot when they differ (Docs/Sync.md).
///
/// The digest finds divergence, whatever caused it (a bug, a write behind
/// the engine's back, a disk); it is no signature: a server that lies can
/// send the digest of what it sends.
///
/// ```swift
/// var digest = PlayersDigest.empty
/// digest.toggle(uuid: player.uuid, name: player.name, score: player.score, version: 42)
/// digest // PlayersDigest(players: 1, checksum: "…")
/// ```
public struct PlayersDigest: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The number of live players.
    public var players: Int
    /// The XOR of the players' hashes: 16 lowercase hexadecimal digits.
    public var checksum: String

    public init(players: Int, checksum: String) {
        self.players = players
        self.checksum = checksum
    }

    public init(players: Int, checksum: UInt64) {
        self.init(players: players, checksum: Self.hexadecimal(checksum))
    }

    /// No player.
    public static let empty = PlayersDigest(players: 0, checksum: 0)

    /// The checksum as a number, nil when it is not 16 lowercase
    /// hexadecimal digits.
    public var checksumValue: UInt64? {
        SyncHexadecimal.value(checksum)
    }

    /// Adds a player that is not counted, or removes one that is (the same
    /// four values): the XOR of its hash, and the count moved by `sign`.
    public mutating func toggle(uuid: UUID, name: String, score: Int, version: Int64, sign: Int = 1) {
        players += sign
        checksum = Self.hexadecimal((checksumValue ?? 0) ^ Self.hash(uuid: uuid, name: name, score: score, version: version))
    }

    /// `12 players, checksum 0123456789abcdef`.
    public var description: String {
        "\(players) player\(players == 1 ? "" : "s"), checksum \(checksum)"
    }

    /// The hash of one player: the first 8 bytes, big-endian, of the MD5 of
    /// the UTF-8 text `uuid|version|score|name` (the uuid in lowercase,
    /// the numbers in decimal). PostgreSQL computes the same with
    /// `md5()` in the PostgreSQL store's triggers; the name comes last, so
    /// that a `|` in it cannot make two players one text. For many
    /// players, one ``PlayersDigestHasher`` is faster.
    public static func hash(uuid: UUID, name: String, score: Int, version: Int64) -> UInt64 {
        hash(uuidText: uuid.uuidString, name: name, score: score, version: version)
    }

    /// ``hash(uuid:name:score:version:)`` of a uuid as a database stores
    /// it, in either case.
    public static func hash(uuidText: String, name: String, score: Int, version: Int64) -> UInt64 {
        PlayersDigestHasher().hash(uuidText: uuidText, name: name, score: score, version: version)
    }

    private static func hexadecimal(_ value: UInt64) -> String {
        SyncHexadecimal.text(value)
    }
}
