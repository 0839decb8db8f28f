import ArgumentParser
import CipherDB
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
                exist, with the key given as for 'players init'.
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The plaintext database to import.")
        var source: String

        func run() async throws {
            let url = options.databaseURL
            guard FileManager.default.fileExists(atPath: source) else {
                throw CLIError.failure("there is no database at \(source)")
            }
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError.failure("a players database already exists at \(url.path): choose another --database")
            }
            let notPlaintext = CLIError.failure("\(source) is not a plaintext SQLite database: nothing was created")
            // SRC is checked before anything is created.
            do {
                try DatabaseFileOperations.checkPlaintextImport(URL(fileURLWithPath: source))
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                throw notPlaintext
            } catch {
                throw CLIError.from(error)
            }
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let (key, createdKeyFile) = try options.keyForNewDatabase()
            do {
                try DatabaseFileOperations.encrypt(URL(fileURLWithPath: source), into: url, key: key.source)
            } catch {
                if let createdKeyFile { try? FileManager.default.removeItem(at: createdKeyFile) }
                if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB {
                    throw notPlaintext
                }
                throw CLIError.from(error)
            }
            print("Encrypted \(source) into \(url.path).")
            if let createdKeyFile {
                print("Its key is in \(createdKeyFile.path): keep a copy of it in a safe place.")
            }
        }
    }
}
