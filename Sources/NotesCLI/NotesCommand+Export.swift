import AppCommandLine
import AppFiles
import ArgumentParser
import Foundation
import Notes

extension NotesCommand {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every notebook and note as JSON Lines, to a file or to standard output.",
            discussion: """
                One row a line: {"id": …, "table": "notebook" or "note", "values": {…}}, the notebooks first. \
                The file is plaintext, private to its owner (mode 0600), written whole or not at all; \
                '-' writes to standard output. 'notes import' reads it back.
                """)

        @OptionGroup var options: NotesOptions
        @Argument(help: ArgumentHelp("The file to write, or - for standard output.", valueName: "file"), completion: .file())
        var file: String
        @Flag(help: "Replace the file if it exists.") var force = false

        func run() async throws {
            let notes = try options.open()
            let lines = try notes.exportLines()
            let text = Data(lines.map { $0 + "\n" }.joined().utf8)
            if file == StandardStream.argument {
                FileHandle.standardOutput.write(text)
                return
            }
            let destination = URL(fileURLWithPath: file)
            try DatabaseFileOperations.checkDestination(
                destination, replacing: force, protecting: [URL(fileURLWithPath: try options.location().path)])
            try DatabaseFileOperations.writeVerified(to: destination, contents: text) { _ in }
            print("Exported \(lines.count) rows to \(file).")
        }
    }
}
