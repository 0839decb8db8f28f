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
        let grants = try Row.fetchAll(db.cachedStatement(sql: "SELECT partition_key, is_owner FROM sync_server_grant WHERE user_name = ?"),
                                      arguments: [user.name]).map { row in
            SyncGrant(partition: row["partition_key"], user: user.name, isOwner: row["is_owner"])
        }
        return SyncRights(user: user, grants: grants)
    }

    /// Whether a membership of `user` came or went after `version`.
    static func accessChanged(_ db: Database, of user: SyncUser, after version: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT version > ? FROM sync_server_access_change WHERE user_name = ?"),
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

    /// At most this many partitions, a page of a user's snapshot merges
    /// the ranges of each partition's index, in key order already; with
    /// more, it sorts their rows. SQLite's sorter costs more than the rest
    /// of a page's query (it grows its buffer by copies), and a statement
    /// has at most 500 arms.
    public static let mergedPartitionsLimit = 16

    /// The SQL of a page of a user's snapshot over a run of `tables`
    /// tables, from the index of partitions
    /// (``partitionsPageArguments(_:user:read:after:limit:)``).
    static func partitionsPageSQL(partitions: Int, tables: Int) -> String {
        let range = """
            (table_name, id) > (?, ?) AND table_name <= ? AND table_name IN (\(databaseQuestionMarks(count: tables))) AND deleted_at IS NULL
            """
        guard partitions <= mergedPartitionsLimit else {
            return """
                SELECT * FROM sync_server_row INDEXED BY sync_server_row_partition_key
                WHERE \(readablePartitions) AND \(range) ORDER BY table_name, id LIMIT ?
                """
        }
        return Array(repeating: """
            SELECT * FROM sync_server_row INDEXED BY sync_server_row_partition_key WHERE partition_key = ? AND \(range)
            """, count: partitions).joined(separator: " UNION ALL ") + " ORDER BY table_name, id LIMIT ?"
    }

    static func partitionsPageArguments(_ partitions: [String], user: SyncUser, read: SyncSnapshotRead, after: String,
                                        limit: Int) -> StatementArguments {
        let range: [any DatabaseValueConvertible] = [read.firstTable, after, read.lastTable] + read.tables
        guard partitions.count <= mergedPartitionsLimit else {
            return StatementArguments(readablePartitionsArguments(user) + range + [limit])
        }
        return StatementArguments(partitions.flatMap { [$0] + range } + [limit])
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
