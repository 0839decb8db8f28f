import AppCommandLine
import ArgumentParser
import CommandLineBase
import Foundation
import Players
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
                ('players docs syncprotocol'), encrypted with AES-256-GCM unless --plaintext; \
                'players decrypt' prints it back.

                DEST - writes to standard output (a file named - is ./-); an encrypted export or a \
                database is refused on a terminal.

                Example: players export --format json - | players decrypt -
                """)

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case sqlite, json
        }

        @OptionGroup var options: DatabaseOptions
        @OptionGroup var target: TargetKeyOptions

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        @Argument(help: "The exported file, or - for standard output.")
        var destination: String

        @Flag(name: [.long, .customShort("f")], help: "Replace DEST if it exists.")
        var force = false

        @Option(help: "sqlite (an encrypted database) or json (a snapshot of the players).")
        var format: Format = .sqlite

        func run() async throws {
            let toStandardOutput = destination == StandardStream.argument
            if toStandardOutput {
                if format == .sqlite || !target.plaintext {
                    try StandardStream.checkOutputIsNotATerminal(writing: format == .sqlite ? "a database" : "an encrypted export")
                }
            } else {
                try checkDestination(destination, force: force, options: options, target: target)
            }
            let url = options.databaseURL
            let (appDatabase, key) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let destinationKey = try target.destinationKey(default: key)
            if format == .json {
                // A fraction: the players read, encoded, checked.
                let progress = ProgressReporter(label: "Export", quiet: quiet)
                let printed: Data?
                do {
                    defer { progress.finish() }
                    if toStandardOutput {
                        printed = try DatabaseFileOperations.jsonExport(
                            appDatabase, destinationKey: destinationKey, progress: { progress.report($0) })
                    } else {
                        try DatabaseFileOperations.exportJSON(
                            appDatabase, to: URL(fileURLWithPath: destination), destinationKey: destinationKey, replacing: force,
                            progress: { progress.report($0) })
                        printed = nil
                    }
                } catch {
                    throw CLIError.from(error)
                }
                if let printed {
                    try writeToStandardOutput(printed, isPlaintext: destinationKey == nil)
                } else {
                    print("Exported the players of \(url.path) to \(destination) as JSON\(destinationKey == nil ? " (NOT encrypted)" : ", encrypted").")
                }
                return
            }
            do {
                try ProgressReporter(label: "Export", quiet: quiet).whileRunning {
                    if toStandardOutput {
                        try DatabaseFileOperations.export(
                            from: url, sourceKey: key.source, toDescriptor: STDOUT_FILENO, destinationKey: destinationKey)
                    } else {
                        try DatabaseFileOperations.export(
                            from: url, sourceKey: key.source,
                            to: URL(fileURLWithPath: destination), destinationKey: destinationKey, replacing: force)
                    }
                }
            } catch {
                throw CLIError.from(error)
            }
            // Standard output holds the export itself.
            guard !toStandardOutput else { return }
            print("Exported \(url.path) to \(destination)\(destinationKey == nil ? " (NOT encrypted)" : ", encrypted").")
        }

        /// Writes a JSON export to standard output: the bytes of the file
        /// it would be, except that plaintext JSON on a terminal has its
        /// control characters escaped (as 'players decrypt' prints it) and
        /// a final newline.
        func writeToStandardOutput(_ content: Data, isPlaintext: Bool) throws {
            var output = BufferedOutput()
            if isPlaintext && StandardStream.isOutputATerminal {
                try output.append(JSONOutput.printable(String(decoding: content, as: UTF8.self)) + "\n")
            } else {
                try output.append(content)
            }
            try output.flush()
        }
    }
}
