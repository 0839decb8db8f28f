import Foundation
import SyncSchema

/// The rows of a batch as its changes apply one by one: the rules of a
/// change, which every store follows (``SyncChangePlan``).
///
/// - **An upsert of a live row.** In a `server-wins` table it applies when
///   its base version is the row's version; otherwise it is a conflict,
///   answered with the server's row. In a table merged by column, each
///   column it carries applies unless another change set that column since
///   the base version, to another value: those columns are the conflict,
///   answered with the row as it is after the others applied. Columns the
///   change does not carry keep their values (a client of an older
///   declaration does not erase the columns it does not know). An upsert
///   that changes no value writes nothing.
/// - **An upsert of a row the server does not have.** Without a base
///   version it creates the row, which must carry every required column;
///   with the version of the row's tombstone it brings the row back (made
///   on the delete itself); otherwise it is a conflict with no row.
/// - **References.** A row whose references name a row that is not alive
///   is not written: a conflict, answered with the server's row (none, for
///   a new row), so that the device drops what cannot exist.
/// - **A delete** whose base version is the row's version deletes it,
///   leaving a tombstone, with its children: those that reference it
///   `cascade` are deleted too (theirs in turn), `set-null` ones lose the
///   reference, and a `restrict` child makes the delete a conflict that
///   changes nothing. Any other base version is a conflict. The delete of
///   a row already deleted, or never known, is applied: it is gone.
///
/// - **Access.** With a user's rights (``SyncRights``), each change is first
///   checked against the row as stored: a change the user may not make is
///   answered `refused` with the reason, and changes nothing. A row
///   created takes the user as its owner; every row written takes its
///   partition from the row and its owner, and its tombstone keeps it.
struct SyncBatchState {
    let schema: SyncSchema
    let date: Date
    /// The rights of the user who writes, nil for the server's own writes
    /// and a server of the shared token: then every change is allowed.
    private(set) var rights: SyncRights?
    /// The last version given.
    private(set) var version: Int64
    private var rows: [SyncRowKey: SyncStoredRow]
    /// The live rows that reference each row.
    private var children: [SyncRowKey: Set<SyncRowKey>] = [:]
    private var written: [SyncRowKey] = []
    private var writtenKeys: Set<SyncRowKey> = []

    init(schema: SyncSchema, rows: [SyncRowKey: SyncStoredRow], rights: SyncRights?, counter: Int64, date: Date) {
        self.schema = schema
        self.rights = rights
        self.rows = rows
        self.version = counter
        self.date = date
        for row in rows.values {
            for reference in references(of: row) { children[reference.parent, default: []].insert(row.key) }
        }
    }

    /// The rows written, each in its last state, in the order of their
    /// first write.
    var writtenRows: [SyncStoredRow] { written.compactMap { rows[$0] } }

    mutating func apply(_ change: SyncChange, in table: SyncTable) throws(SyncChangeError) -> SyncPushResult {
        let key = SyncRowKey(table: table.name, id: change.row.id)
        let stored = rows[key]
        if let rights, let reason = rights.refusal(of: change, stored: stored, in: table, schema: schema) {
            return try refused(change, with: stored, in: table, reason: reason)
        }
        switch (change.operation, stored?.state) {
        case (.upsert, .live(let values, let columnVersions)?):
            return try update(stored!, values: values, columnVersions: columnVersions, with: change, in: table)
        case (.upsert, .deleted?) where change.baseVersion == stored!.version,
             (.upsert, nil) where change.baseVersion == nil:
            // Created, or brought back by a change made on its delete.
            guard !hasMissingParent(change.row.values, in: table) else { return try conflict(change, with: stored, in: table) }
            do {
                _ = try table.row(id: change.row.id, values: change.row.values, carrying: .whole)
            } catch {
                throw .incompleteRow(error)
            }
            version += 1
            save(SyncStoredRow(key: key, version: version, state: .live(
                values: change.row.values, columnVersions: change.row.values.mapValues { _ in version })))
            return applied(change, version: version)
        case (.upsert, _):
            return try conflict(change, with: stored, in: table)
        case (.delete, .live?) where change.baseVersion == stored!.version:
            guard let tombstone = delete(key) else { return try conflict(change, with: stored, in: table) }
            return applied(change, version: tombstone)
        case (.delete, .live?):
            return try conflict(change, with: stored, in: table)
        case (.delete, _):
            // Gone either way: the device's delete is done.
            return applied(change, version: stored?.version)
        }
    }

    // MARK: - Updates

    private mutating func update(
        _ stored: SyncStoredRow, values: [String: SyncValue], columnVersions: [String: Int64],
        with change: SyncChange, in table: SyncTable
    ) throws(SyncChangeError) -> SyncPushResult {
        guard let base = change.baseVersion, base <= stored.version else { return try conflict(change, with: stored, in: table) }
        let changed = change.row.values.filter { values[$0.key] ?? .null != $0.value }
        var conflicting: Set<String> = []
        switch table.conflicts {
        case .serverWins:
            guard base == stored.version else { return try conflict(change, with: stored, in: table) }
        case .mergeByColumn:
            conflicting = Set(changed.keys.filter { columnVersions[$0, default: 0] > base })
        }
        let applying = changed.filter { !conflicting.contains($0.key) }
        if hasMissingParent(applying, in: table) { return try conflict(change, with: stored, in: table) }
        if !applying.isEmpty {
            version += 1
            var values = values
            var columnVersions = columnVersions
            for (column, value) in applying {
                values[column] = value
                columnVersions[column] = version
            }
            save(SyncStoredRow(key: stored.key, version: version, state: .live(values: values, columnVersions: columnVersions)))
        }
        guard conflicting.isEmpty else { return try conflict(change, with: rows[stored.key], in: table) }
        return applied(change, version: rows[stored.key]!.version)
    }

    /// Whether `values` reference a row that is not alive.
    private func hasMissingParent(_ values: [String: SyncValue], in table: SyncTable) -> Bool {
        SyncStoredRow.references(of: values, in: table).contains { rows[$0.parent]?.isLive != true }
    }

    // MARK: - Deletes

    /// Deletes a live row and its children as their references say, and
    /// returns the version of its tombstone; nil, changing nothing, when a
    /// `restrict` reference forbids it.
    private mutating func delete(_ key: SyncRowKey) -> Int64? {
        var doomed = [key]
        var doomedKeys: Set<SyncRowKey> = [key]
        var nulled: [SyncRowKey: [String]] = [:]
        var restricting: Set<SyncRowKey> = []
        var next = 0
        while next < doomed.count {
            let parent = doomed[next]
            next += 1
            for child in children[parent, default: []].sorted() {
                guard let row = rows[child] else { continue }
                for reference in references(of: row) where reference.parent == parent {
                    switch reference.onDelete {
                    case .cascade:
                        if doomedKeys.insert(child).inserted { doomed.append(child) }
                    case .setNull:
                        nulled[child, default: []].append(reference.column)
                    case .restrict:
                        restricting.insert(child)
                    }
                }
            }
        }
        guard restricting.isSubset(of: doomedKeys) else { return nil }
        let tombstone = version + 1
        for key in doomed {
            version += 1
            save(SyncStoredRow(key: key, version: version, state: .deleted(at: date)))
        }
        for key in nulled.keys.sorted() where !doomedKeys.contains(key) {
            guard let row = rows[key], case .live(var values, var columnVersions) = row.state else { continue }
            version += 1
            for column in nulled[key]! {
                values[column] = .null
                columnVersions[column] = version
            }
            save(SyncStoredRow(key: key, version: version, state: .live(values: values, columnVersions: columnVersions)))
        }
        return tombstone
    }

    // MARK: - Rows and answers

    private func references(of row: SyncStoredRow) -> [SyncRowReference] {
        schema.table(row.key.table).map(row.references(in:)) ?? []
    }

    /// Writes a row, which takes its owner (the earlier state's, or the
    /// writer for a row created) and its partition (from its values, or
    /// its live state's for a tombstone).
    private mutating func save(_ row: SyncStoredRow) {
        var row = row
        let old = rows[row.key]
        row.owner = old?.owner ?? rights?.user.name
        if let values = row.values, let table = schema.table(row.key.table) {
            row.partition = schema.partition(of: table, id: row.key.id, values: values, owner: row.owner)
        } else {
            row.partition = old?.partition
        }
        // A group created in the batch is the writer's for its later changes.
        if let grant = schema.grant(of: row) { rights?.take(grant) }
        if let old {
            for reference in references(of: old) { children[reference.parent]?.remove(row.key) }
        }
        if writtenKeys.insert(row.key).inserted { written.append(row.key) }
        for reference in references(of: row) { children[reference.parent, default: []].insert(row.key) }
        rows[row.key] = row
    }

    /// The change applied, with the row's version after it (its
    /// tombstone's for a delete; none for the delete of a row never known).
    private func applied(_ change: SyncChange, version: Int64?) -> SyncPushResult {
        SyncPushResult(mutationID: change.mutationID, status: .applied, version: version)
    }

    /// A change refused by the user's rights: the reason, with the row as
    /// the server has it when the user reads it (the device takes it
    /// back), else nothing of it.
    private func refused(_ change: SyncChange, with stored: SyncStoredRow?, in table: SyncTable,
                         reason: String) throws(SyncChangeError) -> SyncPushResult {
        guard let stored, rights?.reads(stored.partition, in: table) == true else {
            return SyncPushResult(mutationID: change.mutationID, status: .refused, version: nil, refusal: reason)
        }
        var answer = try conflict(change, with: stored, in: table)
        answer.status = .refused
        answer.refusal = reason
        return answer
    }

    /// A conflict, answered with the server's row as it stands (none when
    /// it is deleted or unknown) and its version.
    private func conflict(_ change: SyncChange, with stored: SyncStoredRow?, in table: SyncTable) throws(SyncChangeError) -> SyncPushResult {
        guard let stored else { return SyncPushResult(mutationID: change.mutationID, status: .conflict, version: nil) }
        guard let values = stored.values else {
            return SyncPushResult(mutationID: change.mutationID, status: .conflict, version: stored.version)
        }
        do {
            let row = try table.row(id: stored.key.id, values: values, carrying: .changed)
            return SyncPushResult(mutationID: change.mutationID, status: .conflict, version: stored.version, serverRow: row)
        } catch {
            throw .storedRowRefused(error)
        }
    }
}
