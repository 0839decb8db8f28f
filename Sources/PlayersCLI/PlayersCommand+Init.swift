import ArgumentParser
import CipherDB
import Foundation
import Players

extension PlayersCommand {
    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an encrypted players database.",
            discussion: """
                With --key-file, --passphrase-file or PLAYERS_PASSPHRASE, the database is \
                encrypted with that key. Otherwise a random 256-bit key is created in \
                $XDG_CONFIG_HOME/players/key (mode 0600, folder 0700), or the key already \
                there is used: keep a copy of it, the database cannot be read without it.

                Example: players init -d ~/team.db
                """)

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let url = options.databaseURL
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError.failure("a players database already exists at \(url.path): it was left unchanged")
            }
            let (key, createdKeyFile) = try options.keyForNewDatabase()
            do {
                let appDatabase = try AppDatabase.open(at: url, key: key.source)
                _ = try await appDatabase.reader.read(Player.fetchCount(_:))
                try appDatabase.close()
            } catch {
                // Leave nothing half-made behind.
                for suffix in ["", "-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: url.path + suffix)
                }
                if let createdKeyFile { try? FileManager.default.removeItem(at: createdKeyFile) }
                throw CLIError.from(error)
            }
            print("Created an encrypted players database at \(url.path).")
            if let createdKeyFile {
                print("Its key is in \(createdKeyFile.path): keep a copy of it in a safe place.")
            }
        }
    }
}
