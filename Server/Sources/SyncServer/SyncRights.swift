import Foundation
import SyncSchema

/// What a user may read and write, as a store reads it in the transaction
/// of a read or a write: the user, and the groups their grants give them
/// (``SyncGrant``). The one rule of access (``SyncTableAccess``), which
/// every path asks: the stores' reads carry out ``reads(_:in:)`` in their
/// queries, and a write's changes are checked by ``refusal(of:stored:in:schema:)``
/// against the rows as stored, never against what a change claims.
///
/// ```swift
/// let rights = try await store.rights(of: user)             // its grants, read by the store
/// if let reason = rights.refusal(of: change, stored: rows[key], in: table, schema: schema) { … }   // answered refused
/// ```
public struct SyncRights: Sendable {
    public let user: SyncUser
    /// The partitions of the groups the user owns.
    public private(set) var ownedGroups: Set<String> = []
    /// The partitions of the groups the user is a member of.
    public private(set) var memberGroups: Set<String> = []

    public init(user: SyncUser, grants: [SyncGrant]) {
        self.user = user
        for grant in grants where grant.user == user.name { take(grant) }
    }

    /// Takes a grant that a write of the batch gave the user (a group they
    /// just created), so that its later changes may write in it.
    public mutating func take(_ grant: SyncGrant) {
        guard grant.user == user.name else { return }
        if grant.isOwner { ownedGroups.insert(grant.partition) } else { memberGroups.insert(grant.partition) }
    }

    /// The user's own partition (their rows of owner tables that are no groups).
    public var ownPartition: String { SyncPartition.user(user.name) }

    /// The partitions whose rows the user reads: their own, and their groups'.
    public var readablePartitions: Set<String> {
        ownedGroups.union(memberGroups).union([ownPartition])
    }

    /// What a long-poll of the user waits for (``StoreChangeScope/concerns(_:)``).
    public var interest: StoreChangeInterest {
        StoreChangeInterest(user: user.name, partitions: readablePartitions)
    }

    /// Whether the user reads a row of `table` in `partition`.
    public func reads(_ partition: String?, in table: SyncTable) -> Bool {
        if table.isShared { return true }
        guard table.access != nil, let partition else { return false }
        return partition == ownPartition || ownedGroups.contains(partition) || memberGroups.contains(partition)
    }

    /// Why the user may not make `change` to a row of `table` that is
    /// stored as `stored` (nil: the server has none), or nil when they may.
    /// A row moved by the change (its group column) is checked where it
    /// is and where it goes.
    public func refusal(of change: SyncChange, stored: SyncStoredRow?, in table: SyncTable, schema: SyncSchema) -> String? {
        let name = user.name
        switch table.access {
        case nil:
            return "the table \(table.name) has no access rule, so no user writes it: nothing was written"
        case .shared(let writers)?:
            guard writers.contains(where: user.roles.contains) else {
                return "writing the table \(table.name) needs the role \(writers.joined(separator: " or ")), which the token of \(name) "
                    + "does not give: nothing was written; ask for a token with that role"
            }
            return nil
        case .owner?:
            guard let stored else { return nil }
            guard stored.owner == name else {
                return "the \(table.name) row \(change.row.id.uuidString) belongs to another user: nothing was written"
            }
            return nil
        case .group?, .membership?:
            let isMembership = if case .membership? = table.access { true } else { false }
            let allowed = isMembership ? ownedGroups : ownedGroups.union(memberGroups)
            let what = isMembership ? "the memberships of a group are written by its owner" : "the group is not one of \(name)'s"
            if let stored, !(stored.partition.map(allowed.contains) ?? false) {
                return "the \(table.name) row \(change.row.id.uuidString) is in a group \(name) may not write (\(what)): nothing was written"
            }
            guard change.operation == .upsert, change.row.values[table.access?.groupColumn ?? ""] != nil else { return nil }
            let target = schema.partition(of: table, id: change.row.id, values: change.row.values, owner: name)
            guard let target, allowed.contains(target) else {
                return "the change moves the \(table.name) row \(change.row.id.uuidString) to a group \(name) may not write (\(what)): "
                    + "nothing was written"
            }
            return nil
        }
    }
}
