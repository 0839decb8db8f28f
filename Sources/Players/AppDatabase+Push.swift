import CipherDB
import Foundation
import PlayersShared
import SyncEngine

// MARK: - Pushing local changes

extension AppDatabase {
    /// The number of local changes waiting to be pushed: the entries of the
    /// sync engine's outbox (``SyncEngine/SyncOutboxEntry``).
    public func pendingChangeCount() throws -> Int {
        try reader.read(SyncOutboxEntry.fetchCount(_:))
    }

    /// Throws ``AppDatabaseError/notPushable(playerID:uuid:_:)`` for the
    /// first player with a change to push whose name or score the server
    /// would refuse (written by another program, or by a release with
    /// other rules), saying which player and how to fix it: its batch
    /// would be refused whole. The push checks the same rules
    /// (``PlayersShared/PlayersSchema``), without naming the player.
    public static func checkPendingPlayers(_ db: Database) throws {
        let players = try Row.fetchCursor(db, sql: """
            SELECT player.id, player.uuid, player.name, player.score FROM sync_outbox
            JOIN player ON player.uuid = sync_outbox.row_id
            WHERE sync_outbox.table_name = 'player' AND sync_outbox.operation = 'upsert' AND sync_outbox.sent_at IS NULL
            ORDER BY sync_outbox.id
            """)
        while let row = try players.next() {
            do throws(PlayerValidationError) {
                // Whatever another program stored: a value of another type
                // breaks the rule too.
                _ = try PlayerValidator.validPlayer(name: String.fromDatabaseValue(row[2]) ?? "", score: Int.fromDatabaseValue(row[3]) ?? -1)
            } catch {
                throw AppDatabaseError.notPushable(playerID: row[0], uuid: row[1], error)
            }
        }
    }
}

extension AppDatabaseError: SyncChangeRefusal {
    /// The player whose change is refused (``notPushable(playerID:uuid:_:)``).
    public var refusedRow: SyncRowReference? {
        guard case .notPushable(_, let uuid, _) = self else { return nil }
        return SyncRowReference(table: Player.databaseTableName, id: uuid)
    }
}
