import ArgumentParser
import Foundation
import CipherDB
import Players

extension PlayersCommand {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a player.")

        @OptionGroup var options: DatabaseOptions

        @Option(help: "The name of the player.")
        var name: String

        @Option(help: "The score of the player (0 or more).")
        var score: Int

        func validate() throws {
            try PlayerInput.validate(name: name, score: score)
        }

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            var player = Player(name: PlayerInput.normalized(name), score: score)
            do {
                try appDatabase.savePlayer(&player)
            } catch {
                throw CLIError.from(error)
            }
            print("Added player \(player.id!): \(player.name), \(player.score).")
        }
    }
}

/// The rules of names and scores typed on the command line.
enum PlayerInput {
    static let maximumNameLength = 100

    static func normalized(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func validate(name: String?, score: Int?) throws {
        if let name {
            let name = normalized(name)
            if name.isEmpty { throw ValidationError("The name must not be empty.") }
            if name.count > maximumNameLength {
                throw ValidationError("The name must have at most \(maximumNameLength) characters.")
            }
        }
        if let score, score < 0 {
            throw ValidationError("The score must be 0 or more.")
        }
    }
}

