import CipherDB
import Foundation
import PlayersProtocol
import SyncSchema
import SyncServer
import SyncServerDatabase

/// Players' tables before the sync engine (`player`, `tombstone`, the
/// counter, the answers, the identity and epochs of the history), taken in
/// by the engine's store when it first opens a server database that holds
/// them: every player keeps its uuid, values and version, every tombstone
/// its version and date, the counter and floor, the identity and epochs
/// (so the clients' cursors stay valid), every kept answer (so a retry
/// gets it); then the tables are dropped, in the same transaction.
///
/// ```swift
/// let database = try ServerSyncDatabase(pool, schema: schema, adopting: PlayersServerAdoption.embedded)
/// ```
public enum PlayersServerAdoption {
    /// Rows read at a time.
    package static let chunkSize = 10_000

    /// The adoption of Players' tables in an encrypted file.
    public static let embedded = ServerSyncDatabase.Adoption(
        history: { db in
            guard try db.tableExists("changeCounter") else { return nil }
            guard let counter = try Row.fetchOne(db, sql: "SELECT value, floor FROM changeCounter") else {
                throw ServerDatabaseError.missingIdentity
            }
            // A database of a release before the history (no identity
            // yet) begins one, as that release's next one did.
            var server = UUID()
            var isRestored = false
            if try db.tableExists("serverIdentity"), let identity = try Row.fetchOne(db, sql: "SELECT server, isBackupCopy FROM serverIdentity") {
                guard let uuid = UUID(uuidString: identity["server"]) else { throw ServerDatabaseError.missingIdentity }
                (server, isRestored) = (uuid, identity["isBackupCopy"])
            }
            var epochs = try db.tableExists("historyEpoch")
                ? try Row.fetchAll(db, sql: "SELECT epoch, start FROM historyEpoch ORDER BY position").map { SyncEpoch(epoch: $0[0], start: $0[1]) }
                : []
            if epochs.isEmpty { epochs = [SyncEpoch(epoch: SyncCursor.newEpoch(), start: 0)] }
            return SyncAdoptedHistory(server: server, epochs: epochs, counter: counter[0], floor: counter[1], isRestored: isRestored)
        },
        rows: { db, take in
            var after = ""
            while true {
                let players = try Row.fetchAll(db, sql: "SELECT uuid, name, score, version FROM player WHERE uuid > ? ORDER BY uuid LIMIT ?",
                                               arguments: [after, chunkSize])
                try take(players.map { try player(uuidText: $0[0], name: $0[1], score: $0[2], version: $0[3]) })
                guard players.count == chunkSize, let last = players.last else { break }
                after = last[0]
            }
            after = ""
            while true {
                let tombstones = try Row.fetchAll(db, sql: "SELECT uuid, version, deletedAt FROM tombstone WHERE uuid > ? ORDER BY uuid LIMIT ?",
                                                  arguments: [after, chunkSize])
                try take(tombstones.map { try tombstone(uuidText: $0[0], version: $0[1], deletedAt: $0[2]) })
                guard tombstones.count == chunkSize, let last = tombstones.last else { break }
                after = last[0]
            }
        },
        answers: { db, take in
            guard try db.tableExists("appliedMutation") else { return }
            var after = ""
            while true {
                let rows = try Row.fetchAll(db, sql: """
                    SELECT mutationID, result, appliedAt FROM appliedMutation WHERE mutationID > ? ORDER BY mutationID LIMIT ?
                    """, arguments: [after, chunkSize])
                try take(try rows.compactMap { try answer(json: $0[1], answeredAt: $0[2]) })
                guard rows.count == chunkSize, let last = rows.last else { break }
                after = last[0]
            }
        },
        drop: { db in
            for table in ["player", "tombstone", "changeCounter", "appliedMutation", "serverIdentity", "historyEpoch", "grdb_migrations"] {
                try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
            }
        })

    /// Marks a copy of a server database whose players were not taken in
    /// yet as a backup (`players-server backup`): the engine's store that
    /// takes them in then begins a new epoch. Does nothing to a database
    /// without Players' earlier tables.
    public static func markAsBackupCopy(_ db: Database) throws {
        guard try db.tableExists("serverIdentity") else { return }
        try db.execute(sql: "UPDATE serverIdentity SET isBackupCopy = 1")
    }

    // MARK: - Players as the engine's rows

    /// A live player as a row of ``PlayersSchema/player``, checked by its
    /// declaration: a player it refuses stops the adoption, naming it.
    public static func player(uuidText: String, name: String, score: Int64, version: Int64) throws -> SyncStoredRow {
        let id = try uuid(uuidText)
        let row = try playerRow(id, name: name, score: score)
        return SyncStoredRow(key: SyncRowKey(table: PlayersSchema.player.name, id: id), version: version,
                             state: .live(values: row.values, columnVersions: row.values.mapValues { _ in version }))
    }

    /// A tombstone as a deleted row of ``PlayersSchema/player``.
    public static func tombstone(uuidText: String, version: Int64, deletedAt: Date) throws -> SyncStoredRow {
        SyncStoredRow(key: SyncRowKey(table: PlayersSchema.player.name, id: try uuid(uuidText)), version: version, state: .deleted(at: deletedAt))
    }

    /// A kept answer of `POST /v1/changes` (``EarlierRecordedAnswer``) as
    /// the engine keeps it; nil for an answer of a release that kept no
    /// change with it and names no player (a delete's), which cannot say
    /// which row it answered: a retry of it is applied again, and a
    /// delete of a row already gone is applied anyway.
    public static func answer(json: String, answeredAt: Date) throws -> SyncRecordedAnswer? {
        let recorded = try EarlierRecordedAnswer(json: json)
        let result = recorded.result
        guard let uuid = recorded.change?.uuid ?? result.player?.uuid else { return nil }
        let operation: SyncChange.Operation = recorded.change?.kind == .delete ? .delete : .upsert
        let serverRow = try result.player.map { try playerRow($0.uuid, name: $0.name, score: $0.score) }
        return SyncRecordedAnswer(
            key: SyncRowKey(table: PlayersSchema.player.name, id: uuid), operation: operation, fingerprint: nil,
            result: SyncPushResult(mutationID: result.mutationID, status: result.status == .applied ? .applied : .conflict,
                                   version: result.version ?? result.player?.version, serverRow: serverRow),
            answeredAt: answeredAt)
    }

    /// A player's values, checked by ``PlayersSchema/player``.
    private static func playerRow(_ id: UUID, name: String, score: Int64) throws(SyncChangeError) -> SyncRow {
        do {
            return try PlayersSchema.player.row(id: id, values: ["name": .text(name), "score": .integer(score)])
        } catch {
            throw .storedRowRefused(error)
        }
    }

    private static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw SyncChangeError.storedRowRefused(.invalidID(table: PlayersSchema.player.name, text))
        }
        return uuid
    }
}
