import AppCommandLine
import ArgumentParser
import CipherDB
import CommandLineBase
import Players

extension PlayersCommand {
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete players.",
            discussion: """
                Deletes all the given players, or none if one of them does not exist. --all asks \
                for confirmation on a terminal; an answer other than y or yes exits with code 1, \
                "Aborted: nothing deleted."

                Example: players delete 3 7
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The ids of the players to delete.")
        var ids: [Int64] = []

        @Flag(help: "Delete all players.")
        var all = false

        @Flag(name: [.long, .customShort("y")], help: "Do not ask for confirmation (required with --all when standard input is not a terminal).")
        var yes = false

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        func validate() throws {
            if all && !ids.isEmpty { throw ValidationError("Give ids or --all, not both.") }
            if !all && ids.isEmpty { throw ValidationError("Give the ids of the players to delete, or --all.") }
        }

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            do {
                if all {
                    let count = try await appDatabase.reader.read(Player.fetchCount(_:))
                    if !yes {
                        guard Terminal.isInteractive else {
                            throw CLIError.usage("refusing to delete all players without confirmation: add --yes")
                        }
                        // A declined confirmation is a refusal, as in most tools.
                        guard Terminal.confirm("Delete all \(count) players from \(options.databaseURL.path)?") else {
                            throw CLIError.failure("Aborted: nothing deleted.")
                        }
                    }
                    // Two statements over every player: the elapsed time.
                    try ProgressReporter(label: "Delete", quiet: quiet).whileRunning { try appDatabase.deleteAllPlayers() }
                    print("Deleted all players.")
                } else {
                    try appDatabase.deletePlayers(exactly: ids)
                    print("Deleted \(ids.count) player\(ids.count == 1 ? "" : "s").")
                }
            } catch {
                throw CLIError.from(error)
            }
        }
    }
}
