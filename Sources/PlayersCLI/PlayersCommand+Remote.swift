import AppCommandLine
import ArgumentParser
import Foundation
import Players
import PlayersSync

extension PlayersCommand {
    struct Remote: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show, set or remove the server that 'players sync' uses by default.",
            discussion: "Example: players remote set http://127.0.0.1:8080",
            subcommands: [Set.self, Show.self, Remove.self],
            defaultSubcommand: Show.self)

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Store the server's base URL in the database.",
                discussion: "Example: players remote set http://127.0.0.1:8080")

            @OptionGroup var options: DatabaseOptions

            @Argument(help: "The server's base URL, such as http://127.0.0.1:8080.")
            var url: String

            func validate() throws {
                _ = try RemoteURL.parse(url)
            }

            func run() async throws {
                let url = try RemoteURL.parse(url)
                let (appDatabase, _) = try options.openDatabase()
                defer { try? appDatabase.close() }
                do {
                    try appDatabase.setRemoteURL(url)
                } catch {
                    throw CLIError.from(error)
                }
                print("The remote is \(url.absoluteString): 'players sync' pushes to \(AppDatabase.changesEndpoint(baseURL: url).absoluteString) and pulls from \(AppDatabase.playersEndpoint(baseURL: url).absoluteString).")
            }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print the stored base URL.",
                discussion: "Example: players remote")

            @OptionGroup var options: DatabaseOptions

            func run() async throws {
                let (appDatabase, _) = try options.openDatabase()
                defer { try? appDatabase.close() }
                let url: URL?
                do {
                    url = try appDatabase.remoteURL()
                } catch {
                    throw CLIError.from(error)
                }
                if let url {
                    Terminal.printLine(url.absoluteString)
                } else {
                    print("No remote is set: run 'players remote set URL'.")
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Forget the stored base URL: 'players sync' then needs --url.",
                discussion: "Example: players remote remove")

            @OptionGroup var options: DatabaseOptions

            func run() async throws {
                let (appDatabase, _) = try options.openDatabase()
                defer { try? appDatabase.close() }
                let removed: URL?
                do {
                    removed = try appDatabase.removeRemoteURL()
                } catch {
                    throw CLIError.from(error)
                }
                if let removed {
                    Terminal.printLine("Removed the remote \(removed.absoluteString): 'players sync' needs --url until 'players remote set URL'.")
                } else {
                    print("No remote was set: nothing to remove.")
                }
            }
        }
    }
}

/// The rules of a server's base URL given on the command line.
enum RemoteURL {
    /// An absolute http or https URL, without credentials (they would show
    /// in `ps`: the token goes in a file), query or fragment.
    static func parse(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty, let url = components.url else {
            throw ValidationError("The URL must be an http or https URL, such as http://127.0.0.1:8080.")
        }
        guard components.user == nil, components.password == nil else {
            throw ValidationError("The URL must not hold credentials: put the token in a file for --token-file, or in PLAYERS_TOKEN.")
        }
        guard components.query == nil, components.fragment == nil else {
            throw ValidationError("The URL must be the server's base URL, without a query or fragment.")
        }
        return url
    }
}
