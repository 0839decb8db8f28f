import AppFiles
import ArgumentParser
import CipherDB
import Foundation
import PlayersOnServer
import SyncServerEmbedded

extension PlayersServerCommand {
    /// `players-server backup`: an online copy of the server's database.
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the server's database to a file, online and encrypted.",
            discussion: """
                The copy is consistent even while the server runs and writes. It is encrypted with \
                the key of the database, written to a temporary file next to DEST, synced, verified \
                (opened with its key, integrity check, same row counts), then renamed to DEST.
                """)

        @Option(help: ArgumentHelp("The server's encrypted database.", valueName: "path"))
        var database: String

        @OptionGroup var key: ServerKeyOptions

        @Argument(help: "The backup file.")
        var destination: String

        @Flag(help: "Replace DEST if it exists.")
        var force = false

        func validate() throws {
            if !key.isGiven {
                throw ValidationError("The database needs --key-file, --passphrase-file or PLAYERS_PASSPHRASE.")
            }
        }

        func run() async throws {
            let keySource = try key.keySource()
            // Opening a missing file would create an empty database.
            guard FileManager.default.fileExists(atPath: database) else {
                throw ServerFailure("the database \(database) does not exist: give the server's --database")
            }
            let source: DatabasePool
            do {
                // The server may be writing: the configuration waits for it
                // rather than fail.
                source = try DatabasePool(path: database, configuration: try ServerDatabaseFile.configuration(ofFileAt: database, key: keySource))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw ServerFailure("cannot open \(database): the passphrase or key is wrong, or the file is not an encrypted database")
            }
            defer { try? source.close() }
            // Marked: a server that opens the copy, once restored, begins a
            // new epoch of its history, and its clients take a snapshot (of
            // a database whose players an earlier release kept, the mark
            // of their tables, which the engine's store takes in with
            // them).
            try DatabaseFileOperations.backup(
                reader: source, to: URL(fileURLWithPath: destination), destinationKey: keySource, replacing: force,
                markingCopy: { db in
                    guard try db.tableExists("sync_server_identity") || db.tableExists("serverIdentity") else {
                        throw ServerDatabaseError.noIdentityYet
                    }
                    try PlayersServerAdoption.markAsBackupCopy(db)
                    try ServerSyncDatabase.markAsBackupCopy(db)
                })
            print("Backed up \(database) to \(destination), encrypted.")
        }
    }

}
