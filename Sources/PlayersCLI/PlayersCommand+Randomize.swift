import AppCommandLine
import ArgumentParser
import CipherDB
import CommandLineBase
import Players

extension PlayersCommand {
    struct Randomize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the demo's random changes (one transaction).",
            discussion: """
                An empty database gets 8 random players; otherwise a player may be added, one may be \
                deleted, and some scores change.

                Example: players randomize -q
                """)

        @OptionGroup var options: DatabaseOptions

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let progress = ProgressReporter(label: "Randomize", quiet: quiet)
            do {
                defer { progress.finish() }
                // The commit of the changes: the last 5%.
                try appDatabase.refreshPlayers { applied, total in
                    progress.report(0.95 * Double(applied) / Double(total))
                }
                progress.report(1)
            } catch {
                throw CLIError.from(error)
            }
            do {
                let count = try await appDatabase.reader.read(Player.fetchCount(_:))
                print("Randomized: \(count) player\(count == 1 ? "" : "s").")
            } catch {
                throw CLIError.from(error)
            }
        }
    }
}
