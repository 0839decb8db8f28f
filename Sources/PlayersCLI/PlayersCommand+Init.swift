import AppCommandLine
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
                encrypted with that key; otherwise with the key already in \
                $XDG_CONFIG_HOME/players/key. Without one, on a terminal, a new passphrase is \
                asked twice (the later commands ask for it); an empty answer, or no terminal, \
                creates a random 256-bit key in that file (mode 0600, folder 0700): keep a \
                copy of it, the database cannot be read without it.

                Example: players init -d ~/team.db
                """)

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let url = options.databaseURL
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw CLIError.failure("a players database already exists at \(url.path): it was left unchanged")
            }
            let (key, createdKeyFile) = try options.keyForNewDatabase(asking: true)
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
            if let notice = DatabaseOptions.newKeyNotice(key, createdKeyFile: createdKeyFile) {
                print(notice)
            }
        }
    }
}
