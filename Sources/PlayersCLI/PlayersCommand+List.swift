import AppCommandLine
import ArgumentParser
import CipherDB
import Foundation
import Players
import TerminalText

extension PlayersCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the players.",
            discussion: """
                Players are printed as they are read, never gathered first, however many there \
                are: an aligned table, or with --json, JSON Lines (one player per line).

                Example: players list --order name --limit 20 --offset 40
                """)

        enum Order: String, ExpressibleByArgument, CaseIterable {
            case score, name
        }

        @OptionGroup var options: DatabaseOptions

        @Option(help: "The order: score (best first) or name.")
        var order: Order = .score

        @Option(help: ArgumentHelp("Print at most this many players.", valueName: "n"))
        var limit: Int?

        @Option(help: ArgumentHelp("Skip this many players first.", valueName: "n"))
        var offset: Int = 0

        @Flag(name: [.long, .customShort("j")], help: "Print JSON Lines, one player per line, instead of a table.")
        var json = false

        func validate() throws {
            if let limit, limit < 0 {
                throw ValidationError("--limit must be a whole number of players, 0 or more.")
            }
            guard offset >= 0 else {
                throw ValidationError("--offset must be a whole number of players, 0 or more.")
            }
        }

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let (players, json) = (players, json)
            do {
                // One read transaction: the widths and the rows come from
                // the same snapshot.
                try await appDatabase.reader.read { db in
                    var output = BufferedOutput()
                    if json {
                        try PlayerJSONLines.write(players, db, to: &output)
                    } else {
                        try PlayerTable.write(players, db, to: &output)
                    }
                    try output.flush()
                }
            } catch {
                throw CLIError.from(error)
            }
        }

        /// The players to print, in order, with the columns printed:
        /// id, name, score, uuid, version.
        var players: QueryInterfaceRequest<Player> {
            let ordered = order == .score ? Player.all().orderedByScore() : Player.all().orderedByName()
            let request = ordered.select(
                Player.Columns.id, Player.Columns.name, Player.Columns.score, Player.Columns.uuid, Player.versionExpression)
            guard limit != nil || offset > 0 else { return request }
            // SQLite's LIMIT -1: no limit.
            return request.limit(limit ?? -1, offset: offset)
        }
    }
}

/// JSON for other programs: sorted keys, one stable shape, and no control
/// character in it, raw (the encoder escapes C0 only; DEL, C1 and the
/// bidirectional controls that ``PrintableText`` escapes are escaped
/// here, as `\u009B`: the same text to a JSON reader).
enum JSONOutput {
    static func string(_ value: some Encodable) throws -> String {
        try encoded(value, formatting: [.prettyPrinted])
    }

    /// The JSON on one line, for JSON Lines (`players sync --watch --json`).
    static func line(_ value: some Encodable) throws -> String {
        try encoded(value, formatting: [])
    }

    private static func encoded(_ value: some Encodable, formatting: JSONEncoder.OutputFormatting) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting.union([.sortedKeys, .withoutEscapingSlashes])
        return printable(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// Pretty-printed JSON with the control and bidirectional characters of
    /// its strings escaped: the same JSON to a reader, harmless to a
    /// terminal. The only raw newlines are the pretty printer's, between
    /// strings: each line is escaped, within its strings only.
    static func printable(_ json: String) -> String {
        json.split(separator: "\n", omittingEmptySubsequences: false).map { PrintableText.escaping(String($0)) }.joined(separator: "\n")
    }
}
