import ArgumentParser
import CipherDB
import Foundation
import Players
import PlayersCommandLine
import PlayersFiles

extension PlayersCommand {
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the database: integrity, foreign keys, encryption.",
            discussion: """
                Exits with 4 if a check fails or the file is damaged, and with 3 if the key \
                does not open it. Removes the temporary files that interrupted commands left \
                next to the database. Changes nothing else: the database is not migrated.

                Example: players verify -d ~/players-backup.db
                """)

        @OptionGroup var options: DatabaseOptions

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        func run() async throws {
            let url = options.databaseURL
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError.failure("there is no players database at \(url.path): run 'players init' to create one")
            }
            let key = try options.resolveKey()
            for path in DatabaseFileOperations.removeAbandonedTemporaries(of: url) {
                Terminal.printError("players: removed \(path), left by an interrupted command")
            }
            func damage(_ error: DatabaseError) -> [String] {
                ["the file is damaged (\(error.message ?? "\(error.resultCode)"))"]
            }
            let problems: [String]
            do {
                // integrity_check reports no fraction: the elapsed time.
                problems = try ProgressReporter(label: "Verify", quiet: quiet).whileRunning {
                    try DatabaseFileOperations.withDatabase(at: url, key: key.source) { queue in
                        try queue.read { db in
                            // The first page decrypts: the key is right. Any
                            // error after this one is damage.
                            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
                            do {
                                return try Self.problems(db)
                            } catch let error as DatabaseError {
                                return damage(error)
                            }
                        }
                    }
                }
            } catch let error as DatabaseError where error.resultCode != .SQLITE_NOTADB {
                problems = damage(error)
            } catch {
                throw CLIError.from(error)
            }
            guard problems.isEmpty else {
                throw CLIError.verificationFailed("verification of \(url.path) failed: \(problems.joined(separator: "; "))")
            }
            print("OK: \(url.path) is intact, consistent and encrypted.")
        }

        /// What is wrong with the database, if anything.
        static func problems(_ db: Database) throws -> [String] {
            var problems: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] {
                problems.append("integrity check: \(integrity.prefix(5).joined(separator: "; "))")
            }
            let violations = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            if !violations.isEmpty {
                problems.append("\(violations.count) foreign key violation(s)")
            }
            if try !db.isEncrypted {
                problems.append("the database is not encrypted")
            }
            return problems
        }
    }
}
