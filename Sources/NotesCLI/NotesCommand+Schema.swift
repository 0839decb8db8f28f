import ArgumentParser
import Foundation
import Notes

extension NotesCommand {
    struct Schema: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the declaration of the tables Notes syncs, for players-server --schema.",
            discussion: "Example: notes schema > notes.schema.json; players-server --schema notes.schema.json")

        func run() async throws {
            FileHandle.standardOutput.write(NotesSchema.json)
        }
    }
}
