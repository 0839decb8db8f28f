import AppCommandLine
import ArgumentParser
import CipherDB
import CommandLineBase
import Foundation
import Players
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
            let url = try options.existingDatabaseURL()
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
                throw options.openingError(error, key: key)
            }
            guard problems.isEmpty else {
                // One line per problem, at most `listedProblems`, then the verdict.
                for problem in problems.prefix(Self.listedProblems) {
                    Terminal.printError("players: \(problem)")
                }
                if problems.count > Self.listedProblems {
                    Terminal.printError("players: … and \(problems.count - Self.listedProblems) more")
                }
                let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
                throw CLIError.verificationFailed("verification of \(url.path) failed: \(count)")
            }
            print("OK: \(url.path) is intact, consistent and encrypted.")
        }

        /// The most problems printed, one line each, before the count.
        static let listedProblems = 20

        /// What is wrong with the database, if anything, one problem each.
        static func problems(_ db: Database) throws -> [String] {
            var problems: [String] = []
            // SQLite 3.15 may put several problems in one row, a line each,
            // under a "*** in database main ***" heading.
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] {
                problems += integrity
                    .flatMap { $0.split(separator: "\n") }
                    .filter { !$0.hasPrefix("*** in database") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                    .map { "integrity check: \($0.trimmingCharacters(in: .whitespaces))" }
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
