import CipherDB
import CipherSync
import Foundation
import Players
import PlayersProtocol

/// The check of a players database against a server's digest
/// (``PlayersDigest``), inside the caller's transaction: one rule, which
/// the merge applies to the digest it stores and a sync answered `304` to
/// the stored one.
enum SyncedPlayersCheck {
    /// How the synced players differ from `server`, or nil when they match
    /// or cannot be compared: no digest, or local changes waiting in the
    /// outbox (the players then differ from the server's by design).
    static func divergence(_ db: Database, from server: PlayersDigest?) throws -> SyncDivergence? {
        guard let server, try PendingChange.fetchCount(db) == 0 else { return nil }
        let local = try PlayersDigest.ofSyncedPlayers(db)
        guard local != server else { return nil }
        return SyncDivergence(local: SyncDigest(local), server: SyncDigest(server))
    }
}

extension PlayersDigest {
    /// The digest as the sync client carries it.
    init(_ digest: SyncDigest) {
        self.init(players: digest.count, checksum: digest.checksum)
    }
}

extension SyncDigest {
    /// The digest of players, as the sync client carries it.
    init(_ digest: PlayersDigest) {
        self.init(count: digest.players, checksum: digest.checksum)
    }
}
