import CipherDB
import Foundation
import PlayersShared

// MARK: - Databases made elsewhere

extension AppDatabase {
    /// Records that a database imported from elsewhere (for example made by
    /// a GRDB app without migrations) already has the schema of the first
    /// migration, so that migrating does not create its table again.
    /// Throws if its `player` table lacks a column of that schema.
    public static func adoptImportedSchema(_ dbWriter: any DatabaseWriter) throws {
        try dbWriter.write { db in
            guard try db.tableExists("player") else { return }
            if try db.tableExists("grdb_migrations"),
               try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier = 'v1'") != nil {
                return
            }
            let columns = Set(try db.columns(in: "player").map { $0.name.lowercased() })
            guard columns.isSuperset(of: ["id", "name", "score"]) else {
                throw AppDatabaseError.importLacksColumns
            }
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations (identifier) VALUES ('v1');
                """)
        }
    }

    /// Checks each player of a database made elsewhere against the rules
    /// that every name and score entering a players database follows
    /// (``PlayerValidator``), and throws for the first that breaks them,
    /// saying which player and how: SQLite stores whatever bytes an app
    /// gave it, and its column types do not constrain values.
    ///
    /// ```swift
    /// try plaintextQueue.read { db in
    ///     try AppDatabase.checkImportedPlayers(db, source: "app.sqlite")
    /// }
    /// ```
    public static func checkImportedPlayers(_ db: Database, source: String) throws {
        guard try db.tableExists("player") else { return }
        // The name as bytes: read as text, invalid UTF-8 would be repaired
        // on the way and go unnoticed.
        let players = try Row.fetchCursor(db, sql: """
            SELECT id, typeof(name), CAST(name AS BLOB), typeof(score), score FROM player ORDER BY id
            """)
        while let row = try players.next() {
            let id: Int64 = row[0]
            do throws(PlayerValidationError) {
                guard row[1] as String == "text", let bytes = row[2] as Data?,
                      let name = String(validating: bytes, as: UTF8.self) else { throw .nameNotText }
                _ = try PlayerValidator.validName(name)
                guard row[3] as String == "integer" else { throw .scoreNotInteger }
                try PlayerValidator.validateScore(row[4])
            } catch {
                throw AppDatabaseError.notImportable(playerID: id, source: source, error)
            }
        }
    }
}
