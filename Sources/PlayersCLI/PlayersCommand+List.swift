import ArgumentParser
import CipherDB
import CipherSync
import Foundation
import Players

extension PlayersCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the players.")

        enum Order: String, ExpressibleByArgument, CaseIterable {
            case score, name
        }

        @OptionGroup var options: DatabaseOptions

        @Option(help: "The order: score (best first) or name.")
        var order: Order = .score

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func run() async throws {
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let order = self.order
            let players = try await appDatabase.reader.read { db in
                switch order {
                case .score: try Player.all().orderedByScore().fetchAll(db)
                case .name: try Player.all().orderedByName().fetchAll(db)
                }
            }
            if json {
                print(try JSONOutput.string(players))
            } else {
                print(PlayerTable(players).text, terminator: "")
            }
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

/// Players as a table with aligned columns.
struct PlayerTable {
    let text: String

    init(_ players: [Player]) {
        guard !players.isEmpty else {
            text = "No players.\n"
            return
        }
        // Names escaped before the columns are measured.
        let rows = [["ID", "NAME", "SCORE"]] + players.map {
            [$0.id.map(String.init) ?? "", PrintableText.escaping($0.name), String($0.score)]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        text = rows.map { row in
            // ID and score right-aligned, name left-aligned.
            let id = String(repeating: " ", count: widths[0] - row[0].count) + row[0]
            let name = row[1] + String(repeating: " ", count: widths[1] - row[1].count)
            let score = String(repeating: " ", count: widths[2] - row[2].count) + row[2]
            return "\(id)  \(name)  \(score)\n"
        }.joined()
    }
}
