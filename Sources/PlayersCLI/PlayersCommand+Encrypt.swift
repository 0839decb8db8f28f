import AppCommandLine
import ArgumentParser
import CipherDB
import CommandLineBase
import Foundation
import Players
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
                try StandardStream.checkInputIsNotATerminal(command: "players encrypt")
            } else if !FileManager.default.fileExists(atPath: source) {
                throw CLIError.failure("there is no database at \(source)")
            }
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError.failure("a players database already exists at \(url.path): choose another --database")
            }
            let name = fromStandardInput ? StandardStream.inputName : source
            let sourceURL = URL(fileURLWithPath: source)
            // A file is checked before a passphrase is asked for it.
            if !fromStandardInput { try checkImport(sourceURL, named: name) }
            // As for `players init`: asked twice on a terminal (never when
            // standard input is the database), before anything is created.
            let (key, createdKeyFile) = try options.keyForNewDatabase(asking: !fromStandardInput)
            let folder = url.deletingLastPathComponent()
            let createsFolder = !FileManager.default.fileExists(atPath: folder.path)
            // sqlcipher_export and the migrations report no fraction: the
            // elapsed time.
            let progress = ProgressReporter(label: "Encrypt", quiet: quiet)
            do {
                try createFolder(of: url)
                try progress.whileRunning {
                    if fromStandardInput {
                        // The copy of standard input goes next to the new database.
                        try DatabaseFileOperations.withCopyOfStandardInput(next: url) { copy in
                            do {
                                try checkImport(copy, named: name)
                                try importDatabase(copy, named: name, into: url, key: key)
                            } catch {
                                throw CLIError.from(error).replacing(copy.path, with: name)
                            }
                        }
                    } else {
                        try importDatabase(sourceURL, named: name, into: url, key: key)
                    }
                }
            } catch {
                if let createdKeyFile { try? FileManager.default.removeItem(at: createdKeyFile) }
                if createsFolder { rmdir(folder.path) }
                throw CLIError.from(error)
            }
            print("Encrypted \(name) into \(url.path).")
            if let notice = DatabaseOptions.newKeyNotice(key, createdKeyFile: createdKeyFile) {
                print(notice)
            }
        }

        /// Refuses SRC unless it is a plaintext SQLite database whose
        /// schema and players a players database accepts.
        func checkImport(_ source: URL, named name: String) throws {
            do {
                try DatabaseFileOperations.checkPlaintextImport(source)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw notPlaintext(name)
            } catch {
                throw CLIError.from(error)
            }
        }

        /// Imports SRC, checked, into a new database at `url`.
        func importDatabase(_ source: URL, named name: String, into url: URL, key: ResolvedKey) throws {
            do {
                try DatabaseFileOperations.encrypt(source, into: url, key: key.source)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw notPlaintext(name)
            }
        }

        func notPlaintext(_ name: String) -> CLIError {
            .failure("\(name) is not a plaintext SQLite database: nothing was created")
        }

        func createFolder(of url: URL) throws {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }
}
