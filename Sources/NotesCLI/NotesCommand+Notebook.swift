import ArgumentParser
import Foundation
import Notes

extension NotesCommand {
    struct NotebookCommands: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "notebook", abstract: "Add, rename, share or delete notebooks.",
            subcommands: [Add.self, Rename.self, Share.self, Unshare.self, Delete.self])

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

        struct Rename: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Rename a notebook.")

            @OptionGroup var options: NotesOptions
            @Argument(help: "The notebook's id.") var id: UUID
            @Argument(help: "Its new name (1 to 100 characters).") var name: String

            func run() async throws {
                let notes = try options.open()
                try notes.renameNotebook(id, name: name)
                // The name as stored: trimmed.
                let renamed = try notes.list().notebooks.first { $0.id == id }?.name ?? name
                print("Renamed the notebook \(id.uuidString) to \(renamed).")
            }
        }

        struct Share: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Share a notebook with a user of the server.",
                discussion: """
                    On a server that knows its users (players-server --auth jwt), the user whose token's sub is USER \
                    reads the notebook and its notes, and writes its notes, once this device has synced. Only the \
                    notebook's owner shares it.
                    """)

            @OptionGroup var options: NotesOptions
            @Argument(help: "The notebook's id.") var id: UUID
            @Option(name: .customLong("with"), help: ArgumentHelp("The user (a token's sub).", valueName: "user")) var user: String

            func run() async throws {
                try options.open().share(notebook: id, with: user)
                print("Shared the notebook \(id.uuidString) with \(user).")
            }
        }

        struct Unshare: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Stop sharing a notebook with a user.",
                discussion: """
                    Once this device has synced, the notebook and its notes leave every device of that user; \
                    their changes to it that had not reached the server are kept on their devices as refused changes.
                    """)

            @OptionGroup var options: NotesOptions
            @Argument(help: "The notebook's id.") var id: UUID
            @Option(name: .customLong("with"), help: ArgumentHelp("The user (a token's sub).", valueName: "user")) var user: String

            func run() async throws {
                try options.open().unshare(notebook: id, with: user)
                print("Stopped sharing the notebook \(id.uuidString) with \(user).")
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
