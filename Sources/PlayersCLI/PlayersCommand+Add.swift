import AppCommandLine
import ArgumentParser
import CipherDB
import Foundation
import Players
import PlayersShared

extension PlayersCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a player.",
            discussion: "Example: players add -n 'Arthur Dent' -s 42")

        @OptionGroup var options: DatabaseOptions

        @Option(name: [.long, .customShort("n")], help: "The name of the player.")
        var name: String

        // .unconditional: "-5" is the value of --score (refused by the validator
        // with the rule), not an unknown option.
        @Option(name: [.long, .customShort("s")], parsing: .unconditional, help: "The score of the player (0 to 1,000,000,000).")
        var score: Int

        func validate() throws {
            try PlayerInput.validate(name: name, score: score)
        }

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            var player = Player(name: try PlayerInput.normalized(name), score: score)
            do {
                try appDatabase.savePlayer(&player)
            } catch {
                throw CLIError.from(error)
            }
            Terminal.printLine("Added player \(player.id!): \(player.name), \(player.score).")
        }
    }
}

/// Names and scores typed on the command line, checked by the Players
/// library's ``PlayerValidator`` (the rule of the server and the sync).
enum PlayerInput {
    /// The name as stored (trimmed).
    static func normalized(_ name: String) throws -> String {
        do {
            return try PlayerValidator.validName(name)
        } catch {
            throw usageError(error)
        }
    }

    static func validate(name: String?, score: Int?) throws {
        if let name { _ = try normalized(name) }
        if let score {
            do { try PlayerValidator.validateScore(score) } catch { throw usageError(error) }
        }
    }

    /// "the name is empty: it must be …".
    private static func usageError(_ error: PlayerValidationError) -> ValidationError {
        ValidationError("the \(error.field) \(error.problem): it must be \(error.rule)")
    }
}
