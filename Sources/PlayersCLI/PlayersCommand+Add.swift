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

        @Option(help: "The score of the player (0 to 1,000,000,000).")
        var score: Int

        func validate() throws {
            try PlayerInput.validate(name: name, score: score)
        }

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
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

/// The rules of names and scores typed on the command line (the
/// Players library's, shared with the server and the sync).
enum PlayerInput {
    static func normalized(_ name: String) -> String {
        Player.normalizedName(name)
    }

    static func validate(name: String?, score: Int?) throws {
        if let name {
            let name = normalized(name)
            if name.isEmpty { throw ValidationError("The name must not be empty.") }
            if name.count > Player.maximumNameLength {
                throw ValidationError("The name must have at most \(Player.maximumNameLength) characters.")
            }
        }
        if let score, !Player.scoreRange.contains(score) {
            throw ValidationError("The score must be from \(Player.scoreRange.lowerBound) to \(Player.scoreRange.upperBound).")
        }
    }
}
