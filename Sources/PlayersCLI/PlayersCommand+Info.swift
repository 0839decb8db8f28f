import ArgumentParser
import CipherDB
import CipherSync
import Foundation
import Players
import PlayersSync
import SyncEngine
import SyncSchema

extension PlayersCommand {
    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Describe the database: file, encryption, schema, players.",
            discussion: "Example: players info -j")

        @OptionGroup var options: DatabaseOptions

        @Flag(name: [.long, .customShort("j")], help: "Print a JSON object instead of lines.")
        var json = false

        struct Report: Encodable {
            var path: String
            var sizeBytes: Int
            var sqlcipherVersion: String
            var sqliteVersion: String
            var cipherPageSize: Int
            var kdfIterations: Int
            var rawKey: Bool
            var keySource: String
            var migrations: [String]
            var playerCount: Int
            /// The URL that a plain `players sync` uses, if stored.
            var remoteURL: String?
            /// Where the last sync left off, and from which endpoint.
            var syncCursor: String?
            var syncEndpoint: String?
            /// Local changes the next sync pushes.
            var pendingChanges: Int
            /// Local values that lost to the server's (`players conflicts`).
            var conflicts: Int
        }

        func run() async throws {
            let (appDatabase, key) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let path = options.databaseURL.path
            let size = ["", "-wal"].reduce(0) { total, suffix in
                total + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? NSNumber)?.intValue ?? 0)
            }
            let report = try await appDatabase.reader.read { db in
                let position = try db.syncPosition()
                return Report(
                    path: path,
                    sizeBytes: size,
                    sqlcipherVersion: try db.cipherVersion,
                    sqliteVersion: try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "",
                    // SQLCipher answers its pragmas as text.
                    cipherPageSize: try String.fetchOne(db, sql: "PRAGMA cipher_page_size").flatMap { Int($0) } ?? 0,
                    kdfIterations: try String.fetchOne(db, sql: "PRAGMA kdf_iter").flatMap { Int($0) } ?? 0,
                    rawKey: key.source.isRawKey,
                    keySource: key.origin.rawValue,
                    migrations: try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid"),
                    playerCount: try Player.fetchCount(db),
                    remoteURL: try AppDatabase.remoteURL(db)?.absoluteString,
                    syncCursor: position.cursor,
                    syncEndpoint: position.endpoint,
                    pendingChanges: try SyncOutboxEntry.fetchCount(db),
                    conflicts: try SyncConflict.fetchCount(db))
            }
            if json {
                print(try JSONOutput.string(report))
            } else {
                [
                    "Database:        \(report.path)",
                    "Size:            \(report.sizeBytes) bytes",
                    "SQLCipher:       \(report.sqlcipherVersion) (SQLite \(report.sqliteVersion))",
                    "Cipher page:     \(report.cipherPageSize) bytes",
                    "KDF iterations:  \(report.kdfIterations)\(report.rawKey ? " (not used: raw key)" : "")",
                    "Key:             \(report.rawKey ? "raw 256-bit key" : "passphrase"), from \(report.keySource)",
                    "Schema:          \(report.migrations.joined(separator: ", "))",
                    "Players:         \(report.playerCount)",
                    "Remote:          \(report.remoteURL ?? "none ('players remote set URL')")",
                    "Last sync:       \(report.syncCursor.map { "cursor \(SyncCursor.shown($0)) from \(report.syncEndpoint ?? "?")" } ?? "never")",
                    "To push:         \(report.pendingChanges) change\(report.pendingChanges == 1 ? "" : "s")",
                    "Conflicts:       \(report.conflicts)\(report.conflicts > 0 ? " ('players conflicts')" : "")",
                ].forEach(Terminal.printLine)
            }
        }
    }
}
