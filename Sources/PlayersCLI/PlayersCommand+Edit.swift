import AppCommandLine
import ArgumentParser
import CipherDB
import Players
import PlayersShared

extension PlayersCommand {
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change the name or score of a player.",
            discussion: "Example: players edit 9 -s 4200")

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The id of the player.")
        var id: Int64

        @Option(name: [.long, .customShort("n")], help: "The new name.")
        var name: String?

        // .unconditional: "-5" is the value of --score, refused with the rule.
        @Option(name: [.long, .customShort("s")], parsing: .unconditional, help: "The new score (0 to 1,000,000,000).")
        var score: Int?

        func validate() throws {
            guard name != nil || score != nil else {
                throw ValidationError("Give --name, --score, or both.")
            }
            try PlayerInput.validate(name: name, score: score)
        }

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let name = try self.name.map(PlayerInput.normalized)
            let score = self.score
            let player: Player?
            do {
                player = try appDatabase.updatePlayer(id: id) { player in
                    if let name { player.name = name }
                    if let score { player.score = score }
                }
            } catch let error as PlayerValidationError where name == nil {
                // The stored name breaks the rule (written by an older
                // version or another program): the change could not be
                // pushed with it.
                throw CLIError.failure(
                    "the stored name of player \(id) \(error.problem), and a name must be \(error.rule): give a new --name too; nothing was changed")
            } catch {
                throw CLIError.from(error)
            }
            guard let player else {
                throw CLIError.failure("there is no player with id \(id): nothing was changed")
            }
            Terminal.printLine("Player \(id): \(player.name), \(player.score).")
        }
    }
}
