import AppCommandLine
import ArgumentParser
import CommandLineBase
import Foundation
import Players
import PlayersFiles

extension PlayersCommand {
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the database to a file, online and encrypted.",
            discussion: """
                The copy is consistent even while other processes write. It is encrypted with \
                the key of the database (or --to-passphrase-file / --to-key-file), written to a \
                temporary file next to DEST, synced, verified (opened with its key, integrity \
                check, same row counts), then renamed to DEST.

                Example: players backup -q ~/players-backup.db
                """)

        @OptionGroup var options: DatabaseOptions
        @OptionGroup var target: TargetKeyOptions

        @Argument(help: "The backup file.")
        var destination: String

        @Flag(name: [.long, .customShort("f")], help: "Replace DEST if it exists.")
        var force = false

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        func run() async throws {
            try checkDestination(destination, force: force, options: options, target: target)
            let (appDatabase, key) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let destinationKey = try target.destinationKey(default: key)
            let progress = ProgressReporter(label: "Backup", quiet: quiet)
            do {
                try DatabaseFileOperations.backup(
                    appDatabase, to: URL(fileURLWithPath: destination), destinationKey: destinationKey,
                    replacing: force, progress: { progress.report($0) })
            } catch {
                progress.finish()
                throw CLIError.from(error)
            }
            progress.finish()
            print("Backed up \(options.databaseURL.path) to \(destination)\(destinationKey == nil ? " (NOT encrypted)" : ", encrypted").")
        }
    }
}
