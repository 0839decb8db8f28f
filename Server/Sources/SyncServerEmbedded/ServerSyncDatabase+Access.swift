import CipherDB
import Foundation
import SyncSchema
import SyncServer

/// Users' access (``SyncRights``) as ``ServerSyncDatabase`` carries it out:
/// the grants of groups and memberships (`sync_server_grant`), when each
/// user's access last changed (`sync_server_access_change`), and the
/// condition of the rows of a user's partitions, in the statements that
/// read them.
extension ServerSyncDatabase {
    /// What `user` may read and write, in the transaction of `db`.
    func rights(_ db: Database, of user: SyncUser) throws -> SyncRights {
        let grants = try Row.fetchAll(db, sql: "SELECT partition_key, is_owner FROM sync_server_grant WHERE user_name = ?",
                                      arguments: [user.name]).map { row in
            SyncGrant(partition: row["partition_key"], user: user.name, isOwner: row["is_owner"])
        }
        return SyncRights(user: user, grants: grants)
    }

    /// Whether a membership of `user` came or went after `version`.
    static func accessChanged(_ db: Database, of user: SyncUser, after version: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT version > ? FROM sync_server_access_change WHERE user_name = ?",
                          arguments: [version, user.name]) ?? false
    }

    /// The condition on `sync_server_row` of the rows of a user's
    /// partitions (``SyncRights/reads(_:in:)``: their own, and those of
    /// their grants), with ``readablePartitionsArguments(_:)``; a shared
    /// table's rows have none, and are read without it.
    static let readablePartitions = """
        partition_key IN (SELECT partition_key FROM sync_server_grant WHERE user_name = ? UNION ALL SELECT ?)
        """

    static func readablePartitionsArguments(_ user: SyncUser) -> [any DatabaseValueConvertible] {
        [user.name, SyncPartition.user(user.name)]
    }

    /// Keeps the grants of the rows a write changed, and the version at
    /// which each user's memberships last changed.
    func saveGrants(_ db: Database, _ plan: SyncChangePlan) throws {
        for (key, grant) in plan.grants {
            try db.execute(sql: "DELETE FROM sync_server_grant WHERE table_name = ? AND id = ?", arguments: [key.table, key.id.uuidString])
            guard let grant else { continue }
            try db.execute(sql: """
                INSERT INTO sync_server_grant (table_name, id, partition_key, user_name, is_owner) VALUES (?, ?, ?, ?, ?)
                """, arguments: [key.table, key.id.uuidString, grant.partition, grant.user, grant.isOwner])
        }
        for user in plan.usersWithChangedAccess.sorted() {
            try db.execute(sql: "INSERT OR REPLACE INTO sync_server_access_change (user_name, version) VALUES (?, ?)",
                           arguments: [user, plan.counter])
        }
    }
}
