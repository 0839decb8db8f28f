import ArgumentParser
import Foundation
import Notes

extension NotesCommand {
    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create the encrypted notes database.")

        @OptionGroup var options: NotesOptions

        func run() async throws {
            let (path, key) = try options.location()
            _ = try NotesDatabase.create(atPath: path, key: key)
            print("Created the notes database \(path).")
        }
    }
}
