import ArgumentParser
import Foundation
import Notes

extension NotesCommand {
    struct NotebookCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notebook", abstract: "Add or delete notebooks.", subcommands: [Add.self, Delete.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Add a notebook; prints its id on the last line.")

            @OptionGroup var options: NotesOptions
            @Argument(help: "The notebook's name (1 to 100 characters).") var name: String

            func run() async throws {
                let id = try options.open().addNotebook(name: name)
                print("Added the notebook \(name).")
                print(id.uuidString)
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Delete a notebook and its notes.")

            @OptionGroup var options: NotesOptions
            @Argument(help: "The notebook's id.") var id: UUID

            func run() async throws {
                try options.open().deleteNotebook(id)
                print("Deleted the notebook \(id.uuidString) and its notes.")
            }
        }
    }
}

extension UUID: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        self.init(uuidString: argument)
    }
}
