import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer

/// Users' access (``SyncRights``) as the PostgreSQL store carries it out:
/// the grants of groups and memberships (`sync_server_grant`), when each
/// user's access last changed (`sync_server_access_change`, read with the
/// counter: ``PostgresSyncStore/readStart(_:_:schema:cache:for:accessChangedAfter:)``);
/// the read filter is in each read's query (``PostgresSyncStore``).
extension PostgresSyncRows {
    /// What `user` may read and write, in the transaction of the connection.
    func rights(of user: SyncUser) async throws -> SyncRights {
        let grants = try await connection.query(
            "SELECT partition_key, is_owner FROM sync_server_grant WHERE user_name = \(user.name)", logger: logger
        ).decode((String, Bool).self).map { SyncGrant(partition: $0.0, user: user.name, isOwner: $0.1) }
        return SyncRights(user: user, grants: grants)
    }

    /// Keeps the grants of the rows a write changed, and the version at
    /// which each user's memberships last changed.
    func saveGrants(_ plan: SyncChangePlan) async throws {
        guard !plan.grants.isEmpty else { return }
        try await connection.query("""
            DELETE FROM sync_server_grant g
            USING unnest(\(plan.grants.map(\.key.table)), \(plan.grants.map(\.key.id))) AS n (table_name, id)
            WHERE g.table_name = n.table_name AND g.id = n.id
            """, logger: logger)
        let granted = plan.grants.compactMap { entry in entry.grant.map { (key: entry.key, grant: $0) } }
        if !granted.isEmpty {
            try await connection.query("""
                INSERT INTO sync_server_grant (table_name, id, partition_key, user_name, is_owner)
                SELECT * FROM unnest(\(granted.map(\.key.table)), \(granted.map(\.key.id)), \(granted.map(\.grant.partition)),
                                     \(granted.map(\.grant.user)), \(granted.map(\.grant.isOwner)))
                """, logger: logger)
        }
        let users = plan.usersWithChangedAccess.sorted()
        guard !users.isEmpty else { return }
        try await connection.query("""
            INSERT INTO sync_server_access_change (user_name, version) SELECT unnest(\(users)), \(plan.counter)
            ON CONFLICT (user_name) DO UPDATE SET version = EXCLUDED.version
            """, logger: logger)
    }
}
