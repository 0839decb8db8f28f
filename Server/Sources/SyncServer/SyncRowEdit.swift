import Foundation
import SyncSchema

/// An edit of one row that the server makes itself (a script's request
/// to its rows, Docs/Server.md), as a change of the engine: the same rules
/// as a device's push (``SyncChangePlan``), on the version it was made on,
/// so that one another write overtook is a conflict, never a lost update.
/// With the client's mutation id, its answer is kept as a push's is, and
/// the request sent again gets it again; without one, nothing is kept.
///
/// ```swift
/// let outcome = try await SyncRowEdit.update(row, expectedVersion: 21, mutationID: nil).apply(to: store)
/// ```
public struct SyncRowEdit: Sendable {
    /// How an edit ended.
    public enum Outcome: Sendable, Equatable {
        /// The row once written, as it stands (the version the edit gave,
        /// or a later one if another write came at once after it).
        case saved(SyncServerRow)
        /// The row is deleted, its tombstone at this version.
        case deleted(version: Int64)
        /// No live row has the key (an update or a delete).
        case notFound
        /// The edit was made on another version than the row's: the row as
        /// it stands (nil when it is deleted), and its version.
        case conflict(SyncServerRow?, version: Int64?)
        /// The user may not make the edit (``SyncRights``): why. Nothing
        /// was written.
        case refused(String)
    }

    enum Kind: Sendable {
        case create
        case update
        case delete
    }

    let kind: Kind
    let row: SyncRow
    /// The table of the row edited.
    public var table: String { row.table }
    /// The id of the row edited.
    public var id: UUID { row.id }
    let expectedVersion: Int64?
    let mutationID: UUID?

    /// Creates `row`, which must carry every required column.
    public static func create(_ row: SyncRow, mutationID: UUID?) -> SyncRowEdit {
        SyncRowEdit(kind: .create, row: row, expectedVersion: nil, mutationID: mutationID)
    }

    /// Sets the columns `row` carries, the others kept; on
    /// `expectedVersion`, else on the version the row has when read.
    public static func update(_ row: SyncRow, expectedVersion: Int64?, mutationID: UUID?) -> SyncRowEdit {
        SyncRowEdit(kind: .update, row: row, expectedVersion: expectedVersion, mutationID: mutationID)
    }

    /// Deletes the row (and what its children's references say).
    public static func delete(_ key: SyncRowKey, in table: SyncTable, expectedVersion: Int64?, mutationID: UUID?) throws -> SyncRowEdit {
        SyncRowEdit(kind: .delete, row: try table.row(id: key.id, values: [:], carrying: .changed), expectedVersion: expectedVersion,
                    mutationID: mutationID)
    }

    /// How many times an edit on no given version is made again on the
    /// row's new one when another write overtook it, before it answers
    /// the conflict: a row written without pause by others.
    static let attempts = 3

    /// Applies the edit to `store` in one transaction. An update or a
    /// delete with a mutation id and an expected version is applied as a
    /// push's change (a row changed since is a conflict, in a table merged
    /// by column only in the columns changed since; the delete of a row
    /// already deleted is done); without, the row is read first. Throws
    /// ``SyncChangeError`` as a push does (a row created from part of its
    /// columns, a mutation id used for another change). With a `user`, the
    /// edit is theirs: checked by their rights as a push's changes are, and
    /// a row they do not read is not found.
    public func apply(to store: any SyncRowStore, by user: SyncUser? = nil, at date: Date = Date()) async throws -> Outcome {
        let key = SyncRowKey(table: row.table, id: row.id)
        var attempt = 0
        while true {
            attempt += 1
            var base = expectedVersion
            // An edit with its mutation id and version is a change as a
            // push sends it, applied by the store's rules alone: sent
            // again, the store answers it as the first time, where a read
            // first would find the version it gave and call it a conflict.
            if kind != .create, mutationID == nil || expectedVersion == nil {
                guard let stored = try await store.row(key), stored.isLive, try await Self.isRead(stored, by: user, in: store) else {
                    return .notFound
                }
                if let expectedVersion, expectedVersion != stored.version {
                    return .conflict(try Self.served(stored, in: store.schema), version: stored.version)
                }
                base = stored.version
            }
            let change = SyncChange(mutationID: mutationID ?? UUID(), operation: kind == .delete ? .delete : .upsert, row: row,
                                    baseVersion: base)
            let result = try await store.apply(SyncWrite([change], keepsAnswers: mutationID != nil, by: user), at: date)?.first
            guard let result else { throw SyncChangeError.storedAnswerDamaged(change.mutationID) }
            switch result.status {
            case .applied:
                guard let version = result.version else { return kind == .delete ? .notFound : .conflict(nil, version: nil) }
                if kind == .delete { return .deleted(version: version) }
                // The whole row: an update carries only the columns it sets.
                guard let stored = try await store.row(key), let served = try Self.served(stored, in: store.schema) else {
                    // Deleted at once by another write: the row as the
                    // edit wrote it.
                    return .saved(SyncServerRow(row: row, version: version))
                }
                return .saved(served)
            case .refused:
                return .refused(result.refusal ?? "the user may not write this row")
            case .conflict where kind != .create && result.serverRow == nil && result.version == nil:
                // An edit of a row the server never had.
                return .notFound
            case .conflict:
                // Another write came first: made again on the new version,
                // unless the client gave the one it saw, or a mutation id
                // that names this change only.
                guard kind != .create, expectedVersion == nil, mutationID == nil, attempt < Self.attempts else {
                    return .conflict(result.serverRow.map { SyncServerRow(row: $0, version: result.version ?? 0) }, version: result.version)
                }
            }
        }
    }

    /// Whether `user` reads `stored` (every user does without signed
    /// identities).
    public static func isRead(_ stored: SyncStoredRow, by user: SyncUser?, in store: any SyncRowStore) async throws -> Bool {
        guard let user else { return true }
        guard let table = store.schema.table(stored.key.table) else { return false }
        return try await store.rights(of: user).reads(stored.partition, in: table)
    }

    /// A stored row as the server serves it, checked by its declaration:
    /// nil when it is deleted.
    public static func served(_ stored: SyncStoredRow, in schema: SyncSchema) throws -> SyncServerRow? {
        guard let values = stored.values else { return nil }
        guard let table = schema.table(stored.key.table) else { throw SyncChangeError.unknownTable(stored.key.table) }
        do {
            return SyncServerRow(row: try table.row(id: stored.key.id, values: values, carrying: .changed), version: stored.version)
        } catch {
            throw SyncChangeError.storedRowRefused(error)
        }
    }
}
