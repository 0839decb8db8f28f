import ArgumentParser
import Foundation
import Notes
import TerminalText

extension NotesCommand {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the notebooks and their notes.")

        @OptionGroup var options: NotesOptions
        @Flag(help: "One JSON object: notebooks (id, name, members) and notes (id, notebook, title, body).") var json = false

        func run() async throws {
            let database = try options.open()
            let (notebooks, notes) = try database.list()
            let members = try database.members()
            if json {
                let listing = Listing(notebooks: notebooks.map { .init(id: $0.id.uuidString, name: $0.name, members: members[$0.id] ?? []) },
                                      notes: notes.map { .init(id: $0.id.uuidString, notebook: $0.notebook.uuidString, title: $0.title, body: $0.body) })
                print(try NotesJSON.text(listing))
                return
            }
            for notebook in notebooks {
                let sharing = members[notebook.id].map { " shared with \($0.joined(separator: ", "))" } ?? ""
                print(PrintableText.escaping("\(notebook.name) (\(notebook.id.uuidString))\(sharing)"))
                for note in notes where note.notebook == notebook.id {
                    print(PrintableText.escaping("  \(note.title) (\(note.id.uuidString))"))
                }
            }
        }

        /// `list --json`: every note has a body, null when it has none.
        struct Listing: Encodable {
            struct Notebook: Encodable {
                var id, name: String
                /// The users it is shared with.
                var members: [String]
            }
            struct Note: Encodable {
                var id, notebook, title: String
                var body: String?

                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(id, forKey: .id)
                    try container.encode(notebook, forKey: .notebook)
                    try container.encode(title, forKey: .title)
                    try container.encode(body, forKey: .body)
                }

                enum CodingKeys: CodingKey { case id, notebook, title, body }
            }

            var notebooks: [Notebook]
            var notes: [Note]
        }
    }
}

/// The JSON that `notes` prints: sorted keys, slashes as they are.
enum NotesJSON {
    static func text<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
