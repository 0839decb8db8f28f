import ArgumentParser
import CipherDB
import Players

extension PlayersCommand {
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the database: integrity, foreign keys, encryption.",
            discussion: "Exits with 4 if a check fails.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            let problems = try await appDatabase.reader.read { db -> [String] in
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
            guard problems.isEmpty else {
                throw CLIError.verificationFailed("verification of \(options.databaseURL.path) failed: \(problems.joined(separator: "; "))")
            }
            print("OK: \(options.databaseURL.path) is intact, consistent and encrypted.")
        }
    }
}
