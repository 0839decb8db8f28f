import ArgumentParser
import CipherDB
import Players

extension PlayersCommand {
    struct Randomize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Apply the demo's random changes (one transaction).",
            discussion: "An empty database gets 8 random players; otherwise a player may be added, one may be deleted, and some scores change.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            do {
                try appDatabase.refreshPlayers()
                let count = try await appDatabase.reader.read(Player.fetchCount(_:))
                print("Randomized: \(count) player\(count == 1 ? "" : "s").")
            } catch {
                throw CLIError.from(error)
            }
        }
    }
}
