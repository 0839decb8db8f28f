import ArgumentParser
import Foundation
import Players
import PlayersCommandLine
import PlayersFiles

extension PlayersCommand {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the database to a new file with sqlcipher_export, or as JSON.",
            discussion: """
                Every page is rewritten: the way to move the database to another passphrase \
                or key, or to change cipher settings. user_version and the migration table come \
                along. The copy is verified before it is renamed to DEST.

                With --format json, DEST is a snapshot of all players in the sync payload shape \
                (Docs/SyncProtocol.md), encrypted with AES-256-GCM unless --plaintext; \
                'players decrypt' prints it back.
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case sqlite, json
        }

        @OptionGroup var options: DatabaseOptions
        @OptionGroup var target: TargetKeyOptions

        @Flag(help: "Print no progress.")
        var quiet = false

        @Argument(help: "The exported file.")
        var destination: String

        @Flag(help: "Replace DEST if it exists.")
        var force = false

        @Option(help: "sqlite (an encrypted database) or json (a snapshot of the players).")
        var format: Format = .sqlite

        func run() async throws {
            try checkDestination(destination, force: force, options: options, target: target)
            let url = options.databaseURL
            let (appDatabase, key) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let destinationKey = try target.destinationKey(default: key)
            if format == .json {
                do {
                    try DatabaseFileOperations.exportJSON(
                        appDatabase, to: URL(fileURLWithPath: destination), destinationKey: destinationKey, replacing: force)
                } catch {
                    throw CLIError.from(error)
                }
                print("Exported the players of \(url.path) to \(destination) as JSON\(destinationKey == nil ? " (NOT encrypted)" : ", encrypted").")
                return
            }
            do {
                try ProgressReporter(label: "Export", quiet: quiet).whileRunning {
                    try DatabaseFileOperations.export(
                        from: url, sourceKey: key.source,
                        to: URL(fileURLWithPath: destination), destinationKey: destinationKey, replacing: force)
                }
            } catch {
                throw CLIError.from(error)
            }
            print("Exported \(url.path) to \(destination)\(destinationKey == nil ? " (NOT encrypted)" : ", encrypted").")
        }
    }
}
