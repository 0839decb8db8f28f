import CipherDB
import Foundation

/// An entry of `sqlite_master`: a table, index, trigger or view.
///
/// See <https://www.sqlite.org/schematab.html>.
public struct SchemaEntry: Hashable, Sendable, CustomStringConvertible {
    public var type: String
    public var name: String
    public var tableName: String
    /// The `CREATE` statement; nil for the indexes of constraints.
    public var sql: String?

    public var description: String { "\(type) \(name)" }

    /// What tells two entries apart: the type, the names (case-insensitive,
    /// as in SQLite) and the statement's tokens, whatever their spacing,
    /// letter case and identifier quotes. A table made by hand as
    /// `CREATE TABLE player (id INTEGER …)` is the one the migrations make
    /// as `CREATE TABLE "player" ("id" INTEGER …)`.
    var signature: [String] {
        [type, name.lowercased(), tableName.lowercased()] + (sql.map(Self.tokens) ?? ["<no sql>"])
    }

    /// The tokens of an SQL statement: identifiers and keywords lowercased
    /// and unquoted (prefixed with `w:`, so that a quoted identifier never
    /// looks like several words), string literals as written, and every
    /// other character on its own.
    ///
    /// See <https://www.sqlite.org/lang_keywords.html>.
    static func tokens(_ sql: String) -> [String] {
        var tokens: [String] = []
        let characters = Array(sql)
        var index = 0
        func isWordCharacter(_ character: Character) -> Bool {
            character.isLetter || character.isNumber || character == "_" || character == "$"
        }
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if let close = ["\"": "\"", "`": "`", "[": "]", "'": "'"][character] {
                // A quoted identifier or string; a doubled quote escapes it.
                var text = ""
                index += 1
                while index < characters.count {
                    if characters[index] == Character(close) {
                        if close != "]", index + 1 < characters.count, characters[index + 1] == Character(close) {
                            text.append(characters[index])
                            index += 2
                            continue
                        }
                        break
                    }
                    text.append(characters[index])
                    index += 1
                }
                index += 1
                tokens.append(character == "'" ? "s:" + text : "w:" + text.lowercased())
            } else if isWordCharacter(character) {
                var word = ""
                while index < characters.count, isWordCharacter(characters[index]) {
                    word.append(characters[index])
                    index += 1
                }
                tokens.append("w:" + word.lowercased())
            } else {
                tokens.append(String(character))
                index += 1
            }
        }
        return tokens
    }

    /// The entries of a database, SQLite's own tables included.
    public static func fetchAll(_ db: Database) throws -> [SchemaEntry] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid").map { row in
            SchemaEntry(type: row["type"], name: row["name"], tableName: row["tbl_name"], sql: row["sql"])
        }
    }
}

extension AppDatabase {
    /// Every schema entry that the migrations create, after each of them:
    /// what a players database of this version, or of an older one, holds.
    /// The database of a GRDB app made from the seeds' first migration is
    /// one of them.
    public static func knownSchema() throws -> [SchemaEntry] {
        let queue = try DatabaseQueue()
        var entries: [SchemaEntry] = []
        for identifier in migrator.migrations {
            try migrator.migrate(queue, upTo: identifier)
            try entries.append(contentsOf: queue.read(SchemaEntry.fetchAll))
        }
        // What SQLite itself adds: statistics, after ANALYZE.
        entries.append(SchemaEntry(type: "table", name: "sqlite_stat1", tableName: "sqlite_stat1",
                                   sql: "CREATE TABLE sqlite_stat1(tbl,idx,stat)"))
        return entries
    }

    /// The entries of `db`'s schema that no migration creates: a foreign
    /// database with any of them is not a players database, and nothing in
    /// it (trigger, view, virtual table, constraint) may run.
    ///
    /// Reading the schema runs nothing from it: SQLite parses the
    /// statements, and runs a trigger or a view only when a statement
    /// uses it.
    public static func unknownSchemaEntries(_ db: Database) throws -> [SchemaEntry] {
        let known = Set(try knownSchema().map(\.signature))
        return try SchemaEntry.fetchAll(db).filter { !known.contains($0.signature) }
    }
}
