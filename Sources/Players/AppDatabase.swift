import CipherDB
import Foundation
import PlayersShared

/// The database of the players: the only way the application reads and
/// writes it. Each service method is one write transaction, so each is
/// atomic. The sync engine's triggers record every change of a player in
/// the outbox that `players sync` pushes, in that same transaction,
/// whatever wrote it (Docs/Sync.md).
///
/// ```swift
/// let appDatabase = try AppDatabase.open(passphrase: { try loadPassphrase() })
/// var player = Player(name: "Arthur", score: 100)
/// try appDatabase.savePlayer(&player)
/// let players = try appDatabase.reader.read { db in try Player.all().orderedByName().fetchAll(db) }
/// ```
public final class AppDatabase: Sendable {
    /// Writes go through the service methods of this module, and of the
    /// package's modules that extend it (the sync merge): `package`, so
    /// that no other code writes around them.
    package let dbWriter: any DatabaseWriter

    /// Migrates the database, then gives access to it. A database that
    /// holds another schema (a players-server database, another
    /// application's) is refused with ``AppDatabaseError`` before anything
    /// is written to it.
    public convenience init(_ dbWriter: any DatabaseWriter) throws {
        try self.init(dbWriter, kindIsChecked: false)
    }

    /// The same; `kindIsChecked` when ``open(at:key:configuration:)`` has
    /// read the file's kind already, before the pool opened it.
    init(_ dbWriter: any DatabaseWriter, kindIsChecked: Bool) throws {
        self.dbWriter = dbWriter
        if !kindIsChecked {
            try Self.refuseUnlessPlayers(dbWriter.read(DatabaseFileKind.of), path: dbWriter.path)
        }
        // The triggers that store each name's order key call it: on the
        // connection that writes, whatever its configuration.
        dbWriter.writeWithoutTransaction { db in db.add(function: Player.nameOrderKeyFunction) }
        try Self.migrator.migrate(dbWriter)
    }

    /// Throws ``AppDatabaseError`` unless `kind` is a new database or the
    /// players'.
    static func refuseUnlessPlayers(_ kind: DatabaseFileKind, path: String) throws {
        guard kind == .empty || kind == .players else {
            throw AppDatabaseError.notPlayers(path: path, kind: kind)
        }
    }

    /// Read-only access to the database.
    public var reader: any DatabaseReader { dbWriter }

    /// Closes the connections, moving the WAL content into the database
    /// file: a copy of the file alone then holds every player. Commands
    /// call it when they are done, because a process may exit before the
    /// last reference to the database is released.
    ///
    /// See <https://www.sqlite.org/wal.html#the_wal_file>.
    public func close() throws {
        try dbWriter.close()
    }

    /// The configuration of the connections: foreign keys on; the SQL
    /// function that the triggers call to store each name's order key
    /// (``Player``'s `nameOrderKeyFunction`); a write that
    /// finds the database locked by another process waits up to 5 seconds
    /// before it fails (unless the base configuration says otherwise); and,
    /// when the environment variable `PLAYERS_SQL_TRACE` is `1`, every
    /// statement printed to standard error, with its bound values hidden.
    public static func makeConfiguration(_ base: Configuration = Configuration()) -> Configuration {
        var configuration = base
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            db.add(function: Player.nameOrderKeyFunction)
        }
        if case .immediateError = configuration.busyMode {
            configuration.busyMode = .timeout(5)
        }
        if ProcessInfo.processInfo.environment["PLAYERS_SQL_TRACE"] == "1" {
            configuration.publicStatementArguments = false
            configuration.prepareDatabase { db in
                let label = db.description
                db.trace { event in
                    FileHandle.standardError.write(Data("SQL \(label): \(event)\n".utf8))
                }
            }
        }
        return configuration
    }
}

// MARK: - Writes

extension AppDatabase {
    /// Inserts the player if it has no id, or else updates it. Throws
    /// ``PlayerValidationError`` for a name or score that breaks the rule
    /// of the command line, the server and the sync (``PlayerValidator``),
    /// and stores the name without surrounding white space, as the server
    /// does.
    public func savePlayer(_ player: inout Player) throws {
        let valid = try Self.validated(player)
        player = try dbWriter.write { db in try valid.saved(db) }
    }

    /// Deletes the players with these ids; returns how many there were.
    @discardableResult
    public func deletePlayers(ids: [Int64]) throws -> Int {
        try dbWriter.write { db in try Player.deleteAll(db, ids: ids) }
    }

    /// Deletes the players with these ids, all of them or none: if one of
    /// them does not exist, nothing is deleted and
    /// ``AppDatabaseError`` names the missing ids.
    public func deletePlayers(exactly ids: [Int64]) throws {
        try dbWriter.write { db in
            let existing = try Set(Player.filter(ids: ids).select(Player.Columns.id, as: Int64.self).fetchAll(db))
            let missing = Set(ids).subtracting(existing)
            guard missing.isEmpty else {
                throw AppDatabaseError.missingPlayers(missing.sorted())
            }
            try Player.deleteAll(db, ids: ids)
        }
    }

    /// Changes the player with this id, writing only what changed; returns
    /// the player, or nil if there is none with this id. Throws
    /// ``PlayerValidationError`` as ``savePlayer(_:)`` does.
    public func updatePlayer(id: Int64, _ modify: @escaping @Sendable (inout Player) -> Void) throws -> Player? {
        try dbWriter.write { db in
            guard let stored = try Player.fetchOne(db, id: id) else { return nil }
            var modified = stored
            modify(&modified)
            let player = try Self.validated(modified)
            try player.updateChanges(db, from: stored)
            return player
        }
    }

    /// The player with its name as stored, or the rule it breaks: every
    /// player the outbox holds is one the server accepts.
    private static func validated(_ player: Player) throws(PlayerValidationError) -> Player {
        var player = player
        player.name = try PlayerValidator.validPlayer(name: player.name, score: player.score)
        return player
    }

    /// Deletes all players.
    public func deleteAllPlayers() throws {
        _ = try dbWriter.write { db in try Player.deleteAll(db) }
    }

    /// Inserts 8 random players if there is none.
    public func createRandomPlayersIfEmpty() throws {
        try dbWriter.write { db in
            if try Player.fetchCount(db) == 0 {
                try createRandomPlayers(db)
            }
        }
    }

    /// The demo refresh: random changes, in one transaction, drawn by
    /// ``RandomPlayerChanges`` (the server's refresh follows the same
    /// rule); only the scores that change are written. `progress`, if
    /// any, gets the changes applied so far and their total, every
    /// thousand changes and at the end (before the commit).
    public func refreshPlayers(progress: ((_ applied: Int, _ total: Int) -> Void)? = nil) throws {
        try dbWriter.write { db in
            let changes = RandomPlayerChanges(existing: try Player.fetchAll(db))
            let total = changes.insertions.count + (changes.deletion == nil ? 0 : 1) + changes.scoreChanges.count
            var applied = 0
            func didApply() {
                applied += 1
                if applied % 1000 == 0 || applied == total { progress?(applied, total) }
            }
            for random in changes.insertions {
                var player = Player(random)
                try player.insert(db)
                didApply()
            }
            if let deleted = changes.deletion {
                try deleted.delete(db)
                didApply()
            }
            for (var player, score) in changes.scoreChanges {
                try player.updateChanges(db, modify: { $0.score = score })
                didApply()
            }
        }
    }

    private func createRandomPlayers(_ db: Database) throws {
        for _ in 0..<RandomPlayerChanges<Player>.emptyTablePlayerCount {
            var player = Player.newRandom()
            try player.insert(db)
        }
    }
}
