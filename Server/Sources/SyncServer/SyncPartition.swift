import Foundation
import SyncSchema

/// The partitions of rows (``SyncTableAccess``), as the stores keep them
/// beside each row: `user:NAME` for the rows a user owns in an owner table
/// that is no group, `group:TABLE:ID` for a group's row and the rows and
/// memberships that belong to it. A user reads their own partition and
/// those their grants (``SyncGrant``) give them.
///
/// ```swift
/// SyncPartition.user("alice")                                          // "user:alice"
/// SyncPartition.group(SyncRowKey(table: "notebook", id: id))           // "group:notebook:5C2F0D9E-…"
/// ```
public enum SyncPartition {
    public static func user(_ name: String) -> String {
        "user:" + name
    }

    public static func group(_ key: SyncRowKey) -> String {
        "group:\(key.table):\(key.id.uuidString)"
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

extension SyncTable {
    /// Whether every user reads its rows (rule `shared`): they have no partition.
    public var isShared: Bool {
        if case .shared? = access { true } else { false }
    }
}

extension SyncSchema {
    /// The tables without an access rule: a server that knows its users
    /// (`--auth jwt`) refuses to start with any, since access is denied by
    /// default.
    public var tablesWithoutAccess: [String] {
        tables.filter { $0.access == nil }.map(\.name)
    }

    /// The owner tables whose rows are groups: those a membership table's
    /// group column references.
    public var groupTables: Set<String> {
        Set(tables.compactMap { table in
            guard case .membership(let group, _)? = table.access else { return nil }
            return table.column(group)?.references?.table
        })
    }

    /// The tables every user reads: the shared ones.
    public var sharedTables: [String] {
        tables.filter(\.isShared).map(\.name)
    }

    /// The partition of a live row of `table` with these values, created
    /// by `owner`: the one rule of where a row belongs, which every write
    /// applies (``SyncStoredRow/partition``).
    public func partition(of table: SyncTable, id: UUID, values: [String: SyncValue], owner: String?) -> String? {
        switch table.access {
        case nil, .shared?:
            return nil
        case .owner?:
            if groupTables.contains(table.name) { return SyncPartition.group(SyncRowKey(table: table.name, id: id)) }
            return owner.map(SyncPartition.user)
        case .group(let column)?, .membership(let column, _)?:
            guard let parent = table.column(column)?.references?.table, case .uuid(let group)? = values[column] else { return nil }
            return SyncPartition.group(SyncRowKey(table: parent, id: group))
        }
    }

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
