import Foundation
import SyncSchema

extension SyncPartition {
    /// The partition of the group whose row `key` names.
    public static func group(_ key: SyncRowKey) -> String {
        group(table: key.table, id: key.id)
    }
}

/// What a row gives a user: a group's row, its owner; a membership, its
/// member. The stores keep one per such row (`sync_server_grant`), so that
/// a user's partitions are a lookup of their name.
public struct SyncGrant: Sendable, Hashable {
    public let partition: String
    public let user: String
    /// Whether the grant is the group's owner's, who alone writes its
    /// memberships.
    public let isOwner: Bool

    public init(partition: String, user: String, isOwner: Bool) {
        self.partition = partition
        self.user = user
        self.isOwner = isOwner
    }
}

extension SyncSchema {
    /// The grant a stored row gives, if any: a group's row (live or its
    /// tombstone) to its owner, a live membership to its member.
    public func grant(of row: SyncStoredRow) -> SyncGrant? {
        guard let table = table(row.key.table), let partition = row.partition else { return nil }
        switch table.access {
        case .owner? where groupTables.contains(table.name):
            return row.owner.map { SyncGrant(partition: partition, user: $0, isOwner: true) }
        case .membership(_, let user)?:
            guard case .text(let member)? = row.values?[user] else { return nil }
            return SyncGrant(partition: partition, user: member, isOwner: false)
        default:
            return nil
        }
    }
}
