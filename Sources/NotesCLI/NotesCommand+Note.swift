import ArgumentParser
import Foundation
import Notes

extension NotesCommand {
    struct NoteCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "note", abstract: "Add, edit or delete notes.", subcommands: [Add.self, Edit.self, Delete.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a note to a notebook; prints its id on the last line.")

            @OptionGroup var options: NotesOptions
            @Option(help: "The notebook's id.") var notebook: UUID
            @Option(help: "The note's title (1 to 200 characters).") var title: String
            @Option(help: "The note's body.") var body: String?

            func run() async throws {
                let id = try options.open().addNote(notebook: notebook, title: title, body: body)
                print("Added the note \(title).")
                print(id.uuidString)
            }
        }

        struct Edit: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Change a note's title, body, or both.")

            @OptionGroup var options: NotesOptions
            @Argument(help: "The note's id.") var id: UUID
            @Option(help: "The new title.") var title: String?
            @Option(help: "The new body.") var body: String?

            func validate() throws {
                if title == nil && body == nil { throw ValidationError("Give --title, --body, or both.") }
            }

            func run() async throws {
                try options.open().editNote(id, title: title, body: body.map { .some($0) })
                print("Changed the note \(id.uuidString).")
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a note.")

            @OptionGroup var options: NotesOptions
            @Argument(help: "The note's id.") var id: UUID

            func run() async throws {
                try options.open().deleteNote(id)
                print("Deleted the note \(id.uuidString).")
            }
        }
    }
}
