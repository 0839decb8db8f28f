import ArgumentParser

/// `players-server`: `serve` (the default, so that `players-server --port
/// 8080` serves) or `backup`. Each command has its own options.
@main
struct PlayersServerMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "players-server",
        abstract: "The players sync server.",
        subcommands: [PlayersServerCommand.self, PlayersServerCommand.Backup.self],
        defaultSubcommand: PlayersServerCommand.self)
}
