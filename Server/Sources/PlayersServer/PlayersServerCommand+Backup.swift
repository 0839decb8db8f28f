import ArgumentParser
import CipherDB
import Foundation
import Players
import PlayersFiles

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

        @Option(help: ArgumentHelp("Its raw 256-bit key, as 64 hexadecimal digits (mode 0600).", valueName: "file"))
        var keyFile: String?

        @Option(help: ArgumentHelp("Its passphrase (mode 0600).", valueName: "file"))
        var passphraseFile: String?

        @Argument(help: "The backup file.")
        var destination: String

        @Flag(help: "Replace DEST if it exists.")
        var force = false

        func validate() throws {
            if keyFile != nil && passphraseFile != nil { throw ValidationError("Give --key-file or --passphrase-file, not both.") }
            if keyFile == nil && passphraseFile == nil && (ProcessInfo.processInfo.environment["PLAYERS_PASSPHRASE"] ?? "").isEmpty {
                throw ValidationError("The database needs --key-file, --passphrase-file or PLAYERS_PASSPHRASE.")
            }
        }

        func run() async throws {
            let key: DatabaseKeySource
            if let keyFile {
                let raw = try PlayersServerCommand.secret { try SecretFiles.readKey(keyFile) }
                key = .rawKey { raw }
            } else if let passphraseFile {
                let passphrase = try PlayersServerCommand.secret { try SecretFiles.readPassphrase(passphraseFile) }
                key = .passphrase { passphrase }
            } else {
                let passphrase = ProcessInfo.processInfo.environment["PLAYERS_PASSPHRASE"] ?? ""
                key = .passphrase { passphrase }
            }
            // Opening a missing file would create an empty database.
            guard FileManager.default.fileExists(atPath: database) else {
                throw DatabaseFileError("the database \(database) does not exist: give the server's --database")
            }
            var configuration = Configuration()
            // The server may be writing: wait for it rather than fail.
            configuration.busyMode = .timeout(5)
            configuration.prepareDatabase { db in
                switch key {
                case .passphrase(let load): try db.usePassphrase(load())
                case .rawKey(let load): try db.useRawKey(load())
                }
            }
            let source: DatabasePool
            do {
                source = try DatabasePool(path: database, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw DatabaseFileError("cannot open \(database): the passphrase or key is wrong, or the file is not an encrypted database")
            }
            defer { try? source.close() }
            try DatabaseFileOperations.backup(
                reader: source, to: URL(fileURLWithPath: destination), destinationKey: .key(key), replacing: force)
            print("Backed up \(database) to \(destination), encrypted.")
        }
    }

}
