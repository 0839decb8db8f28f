import Foundation
import SyncSchema

/// Hashes players one after another (``PlayersDigest/hash(uuid:name:score:version:)``)
/// with one buffer: a player is a row of ``PlayersSchema/player``, whose
/// hash is the sync engine's (``SyncRowHasher``, the text
/// `uuid|version|score|name`). The migrations that first compute a
/// digest, and the checks that recompute one, hash every player.
///
/// Not `Sendable`: one per task, for the players it hashes.
///
/// ```swift
/// let hasher = PlayersDigestHasher()
/// var checksum: UInt64 = 0
/// for player in players { checksum ^= hasher.hash(uuidText: player.uuid, name: player.name, score: player.score, version: player.version) }
/// ```
public final class PlayersDigestHasher {
    private let rows = SyncRowHasher()

    public init() {}

    /// The hash of one player; the uuid as a database stores it, in either
    /// case.
    public func hash(uuidText: String, name: String, score: Int, version: Int64) -> UInt64 {
        // PlayersSchema's value columns, in order: score, then name.
        rows.hash(idText: uuidText, version: version, values: [.integer(Int64(score)), .text(name)])
    }
}
