import Foundation

/// The partitions of rows (``SyncTableAccess``), as the stores keep them
/// beside each row and as a device seals an end-to-end table's rows under
/// their partition's key: `user:NAME` for the rows a user owns in an
/// owner table that is no group, `group:TABLE:ID` for a group's row and
/// the rows and memberships that belong to it. A user reads their own
/// partition and those of the groups they own or are members of.
///
/// ```swift
/// SyncPartition.user("alice")                                          // "user:alice"
/// SyncPartition.group(table: "notebook", id: id)                       // "group:notebook:5C2F0D9E-…"
/// ```
public enum SyncPartition {
    public static func user(_ name: String) -> String {
        "user:" + name
    }

    public static func group(table: String, id: UUID) -> String {
        "group:\(table):\(id.uppercasedText)"
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
        Set(tables.compactMap(Self.groupTable(ofMembership:)))
    }

    /// Whether `name` is one of ``groupTables``: asked for every row a
    /// device seals or opens, so it makes no set.
    func isGroupTable(_ name: String) -> Bool {
        tables.contains { Self.groupTable(ofMembership: $0) == name }
    }

    /// The group table that `table` is a membership table of.
    private static func groupTable(ofMembership table: SyncTable) -> String? {
        guard case .membership(let group, _)? = table.access else { return nil }
        return table.column(group)?.references?.table
    }

    /// The tables every user reads: the shared ones.
    public var sharedTables: [String] {
        tables.filter(\.isShared).map(\.name)
    }

    /// The partition of a live row of `table` with these values, created
    /// by `owner`: the one rule of where a row belongs, which the server
    /// applies to every write, and a device to the rows it seals.
    public func partition(of table: SyncTable, id: UUID, values: [String: SyncValue], owner: String?) -> String? {
        switch table.access {
        case nil, .shared?:
            return nil
        case .owner?:
            if isGroupTable(table.name) { return SyncPartition.group(table: table.name, id: id) }
            return owner.map(SyncPartition.user)
        case .group(let column)?, .membership(let column, _)?:
            guard let parent = table.column(column)?.references?.table, case .uuid(let group)? = values[column] else { return nil }
            return SyncPartition.group(table: parent, id: group)
        }
    }
}
