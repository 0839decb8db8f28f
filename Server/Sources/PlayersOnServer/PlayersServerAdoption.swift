import CipherDB
import Foundation
import PlayersShared
import SyncSchema
import SyncServer
import SyncServerEmbedded

/// Players' tables before the sync engine (`player`, `tombstone`, the
/// counter, the answers, the identity and epochs of the history), taken in
/// by the engine's store when it first opens a server database that holds
/// them (`SyncAdoption`): every player keeps its uuid, values and version,
/// every tombstone its version and date, the counter and floor, the
/// identity and epochs (so the clients' cursors stay valid), every kept
/// answer (so a retry gets it); then the tables are dropped, in the same
/// transaction.
///
/// What is read, in what order, and what it becomes is written here once;
/// each store's dialect (``embedded`` here, `postgres` in
/// PlayersOnServer) only reads the tables with its SQL.
///
/// ```swift
/// let database = try ServerSyncDatabase(pool, schema: schema, adopting: PlayersServerAdoption.embedded)
/// ```
public enum PlayersServerAdoption {
    /// Records read at a time.
    package static let chunkSize = 10_000

    /// Why Players' earlier tables are not taken in; the database is left
    /// as it was.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        /// The server's declarations have no player table: the players
        /// could not be served.
        case playersUndeclared

        public var description: String {
            "the database holds the players of a release before the sync engine, and the declarations of --schema have no player table: "
                + "give Players' declaration too (players schema > players.json; --schema players.json); the database was not changed"
        }
    }

    /// Players' earlier tables, in the order they are taken in, each a
    /// chunk at a time in key order (``SyncServer/SyncAdoptedChunk/Position/part``).
    package enum Part: Int {
        case players, tombstones, answers

        /// The part of the chunk at `position` (the first, from its start,
        /// when nil).
        package init(_ position: SyncAdoptedChunk.Position?) {
            guard let position else {
                self = .players
                return
            }
            guard let part = Part(rawValue: position.part) else { preconditionFailure("not a part of Players' tables: \(position.part)") }
            self = part
        }
    }

    /// The history of Players' earlier tables, for a store of `schema`'s
    /// tables, from what each dialect reads of them: the counter (nil when
    /// its row is missing), the identity and whether the database is a
    /// restored copy (nil, and no epochs, in a database of a release
    /// before the history, which begins one, as that release's next one
    /// did), the epochs. Throws ``Refusal/playersUndeclared`` when `schema`
    /// has no player table, before anything is changed.
    package static func history(serving schema: SyncSchema, counter: SyncCounter?, identity: (server: UUID, isRestored: Bool)?,
                                epochs: [SyncEpoch]) throws -> SyncAdoptedHistory {
        guard schema.table(PlayersSchema.player.name) != nil else { throw Refusal.playersUndeclared }
        guard let counter else { throw SyncStoreError.historyMissing }
        return SyncAdoptedHistory(server: identity?.server ?? UUID(),
                                  epochs: epochs.isEmpty ? [SyncEpoch(epoch: SyncCursor.newEpoch(), start: 0)] : epochs,
                                  counter: counter, isRestored: identity?.isRestored ?? false)
    }

    /// The chunk of `part` whose records have `keys` (as the table keeps
    /// them, in order): the next one starts after its last key when it is
    /// full, else at the next part's first; none follows the answers.
    package static func chunk(_ part: Part, keys: [String], rows: [SyncStoredRow] = [],
                              answers: [SyncRecordedAnswer] = []) -> SyncAdoptedChunk {
        let next: SyncAdoptedChunk.Position? = if keys.count == chunkSize, let last = keys.last {
            SyncAdoptedChunk.Position(part: part.rawValue, after: last)
        } else {
            Part(rawValue: part.rawValue + 1).map { SyncAdoptedChunk.Position(part: $0.rawValue, after: nil) }
        }
        return SyncAdoptedChunk(rows: rows, answers: answers, next: next)
    }

    /// The adoption of Players' tables in an encrypted file.
    public static let embedded = ServerSyncDatabase.Adoption(
        history: { db, schema in
            guard try db.tableExists("changeCounter") else { return nil }
            let identity = try db.tableExists("serverIdentity")
                ? try Row.fetchOne(db, sql: "SELECT server, isBackupCopy FROM serverIdentity")
                : nil
            return try history(
                serving: schema,
                counter: try Row.fetchOne(db, sql: "SELECT value, floor FROM changeCounter")
                    .map { SyncCounter(value: $0[0], floor: $0[1]) },
                identity: try identity.map { identity -> (server: UUID, isRestored: Bool) in
                    guard let server = UUID(uuidString: identity["server"]) else { throw ServerDatabaseError.missingIdentity }
                    return (server, identity["isBackupCopy"])
                },
                epochs: try db.tableExists("historyEpoch")
                    ? try Row.fetchAll(db, sql: "SELECT epoch, start FROM historyEpoch ORDER BY position")
                        .map { SyncEpoch(epoch: $0[0], start: $0[1]) }
                    : [])
        },
        chunk: { db, position in
            let after = position?.after ?? ""
            switch Part(position) {
            case .players:
                let players = try Row.fetchAll(db, sql: "SELECT uuid, name, score, version FROM player WHERE uuid > ? ORDER BY uuid LIMIT ?",
                                               arguments: [after, chunkSize])
                return chunk(.players, keys: players.map { $0[0] },
                             rows: try players.map { try player(uuidText: $0[0], name: $0[1], score: $0[2], version: $0[3]) })
            case .tombstones:
                let tombstones = try Row.fetchAll(db, sql: "SELECT uuid, version, deletedAt FROM tombstone WHERE uuid > ? ORDER BY uuid LIMIT ?",
                                                  arguments: [after, chunkSize])
                return chunk(.tombstones, keys: tombstones.map { $0[0] },
                             rows: try tombstones.map { try tombstone(uuidText: $0[0], version: $0[1], deletedAt: $0[2]) })
            case .answers:
                guard try db.tableExists("appliedMutation") else { return chunk(.answers, keys: []) }
                let answers = try Row.fetchAll(db, sql: """
                    SELECT mutationID, result, appliedAt FROM appliedMutation WHERE mutationID > ? ORDER BY mutationID LIMIT ?
                    """, arguments: [after, chunkSize])
                return chunk(.answers, keys: answers.map { $0[0] },
                             answers: try answers.compactMap { try answer(json: $0[1], answeredAt: $0[2]) })
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
