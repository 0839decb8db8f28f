import ArgumentParser
import CipherDB
import Foundation
import Players
import PlayersCommandLine
import PlayersFiles

extension PlayersCommand {
    struct Encrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a plaintext SQLite database into a new encrypted one.",
            discussion: """
                SRC (for example a database made by a GRDB app) is left untouched. The new \
                database is created at --database (or the default location), which must not \
                exist, with the key given as for 'players init'. SRC - reads the database from \
                standard input, into a private temporary file next to the new one (a file named - \
                is ./-).

                Example: players encrypt -d ~/players.db app.sqlite
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The plaintext database to import, or - for standard input.")
        var source: String

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        func run() async throws {
            let url = options.databaseURL
            let fromStandardInput = source == StandardStream.argument
            if fromStandardInput {
                try StandardStream.checkInputIsNotATerminal(command: "encrypt")
            } else if !FileManager.default.fileExists(atPath: source) {
                throw CLIError.failure("there is no database at \(source)")
            }
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError.failure("a players database already exists at \(url.path): choose another --database")
            }
            // sqlcipher_export and the migrations report no fraction: the
            // elapsed time.
            let progress = ProgressReporter(label: "Encrypt", quiet: quiet)
            let name = fromStandardInput ? StandardStream.inputName : source
            let createdKeyFile: URL?
            if fromStandardInput {
                // The copy of standard input goes next to the new database.
                let folder = url.deletingLastPathComponent()
                let createsFolder = !FileManager.default.fileExists(atPath: folder.path)
                try createFolder(of: url)
                do {
                    createdKeyFile = try progress.whileRunning {
                        try DatabaseFileOperations.withCopyOfStandardInput(next: url) { copy in
                            do {
                                return try importDatabase(copy, named: name, into: url)
                            } catch {
                                throw CLIError.from(error).naming(copy.path, as: name)
                            }
                        }
                    }
                } catch {
                    if createsFolder { rmdir(folder.path) }
                    throw CLIError.from(error)
                }
            } else {
                createdKeyFile = try progress.whileRunning { try importDatabase(URL(fileURLWithPath: source), named: name, into: url) }
            }
            print("Encrypted \(name) into \(url.path).")
            if let createdKeyFile {
                print("Its key is in \(createdKeyFile.path): keep a copy of it in a safe place.")
            }
        }

        /// Checks SRC before anything is created, then imports it into a
        /// new database at `url`; returns the key file it created, if any.
        func importDatabase(_ source: URL, named name: String, into url: URL) throws -> URL? {
            let notPlaintext = CLIError.failure("\(name) is not a plaintext SQLite database: nothing was created")
            do {
                try DatabaseFileOperations.checkPlaintextImport(source)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw notPlaintext
            } catch {
                throw CLIError.from(error)
            }
            try createFolder(of: url)
            let (key, createdKeyFile) = try options.keyForNewDatabase()
            do {
                try DatabaseFileOperations.encrypt(source, into: url, key: key.source)
            } catch {
                if let createdKeyFile { try? FileManager.default.removeItem(at: createdKeyFile) }
                if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB {
                    throw notPlaintext
                }
                throw CLIError.from(error)
            }
            return createdKeyFile
        }

        func createFolder(of url: URL) throws {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }
}
