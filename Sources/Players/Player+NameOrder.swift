import CipherDB
import Foundation

// The order of names: by a key stored beside each name (its case, accent
// and width folding) and indexed with the name, so that SQLite sorts by
// comparing bytes, or walks the index, instead of calling a Swift
// collation a million times for 100,000 names.

extension Player {
    /// The key that orders `name` among the others: `name` with its case,
    /// accents and widths folded ("Émile" → "emile"), compared by Unicode
    /// scalars. Names of one key are ordered by the names themselves.
    ///
    /// ```swift
    /// Player.nameOrderKey("Émile") // "emile"
    /// ```
    public static func nameOrderKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// ``nameOrderKey(_:)`` in SQL: the triggers of the `player` table
    /// (migration `v5-name-order`) store it in `nameOrderKey` whenever a
    /// name is inserted or changed, whatever the statement. The
    /// connections of ``AppDatabase/makeConfiguration(_:)`` register it,
    /// and ``AppDatabase`` on the connection that writes; a connection
    /// without it (the sqlcipher shell) cannot insert or rename players,
    /// and says so ("no such function"), rather than leave a key stale.
    package static let nameOrderKeyFunction = DatabaseFunction("players_name_order_key", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(nameOrderKey)
    }

    /// The column of the stored keys, which ``Player`` itself does not
    /// decode.
    static let nameOrderKeyColumn = Column("nameOrderKey")

    /// Indexes the keys of the `nameOrderKey` column with the names, and
    /// keeps them up to date with triggers (migrations `v5-name-order`,
    /// and `v7-sync-engine`, which rebuilds the table).
    static func indexNameOrderKeys(_ db: Database) throws {
        try db.execute(sql: """
            CREATE INDEX player_on_nameOrderKey ON player(nameOrderKey, name);
            CREATE TRIGGER player_nameOrderKey_insert AFTER INSERT ON player BEGIN
                UPDATE player SET nameOrderKey = players_name_order_key(NEW.name) WHERE id = NEW.id;
            END;
            CREATE TRIGGER player_nameOrderKey_update AFTER UPDATE OF name ON player BEGIN
                UPDATE player SET nameOrderKey = players_name_order_key(NEW.name) WHERE id = NEW.id;
            END;
            """)
    }
}

// MARK: - Requests

extension DerivableRequest<Player> {
    /// Players by name, in the order people expect (case, accents and
    /// widths folded): "anita" before "Arthur" before "Émile" before
    /// "Zoé". SQLite reads them in the order of an index.
    ///
    /// ```swift
    /// let players = try Player.all().orderedByName().fetchAll(db)
    /// ```
    public func orderedByName() -> Self {
        order(Player.nameOrderKeyColumn, Player.Columns.name)
    }

    /// Players by descending score, then by name.
    ///
    /// ```swift
    /// let best = try Player.all().orderedByScore().fetchOne(db)
    /// ```
    public func orderedByScore() -> Self {
        order(Player.Columns.score.desc, Player.nameOrderKeyColumn, Player.Columns.name)
    }
}
