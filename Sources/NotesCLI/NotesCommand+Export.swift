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
            if file == "-" {
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

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the notebooks and notes of JSON Lines, from a file or from standard input.",
            discussion: """
                The lines that 'notes export' writes, each checked as a sync checks a row: all of them are added \
                in one transaction, or none, and a refused line is named by its number. '-' reads standard input.
                """)

        @OptionGroup var options: NotesOptions
        @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"), completion: .file())
        var file: String

        func run() async throws {
            let data: Data
            if file == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
                guard !data.isEmpty else { throw CLIError.failure("standard input is empty: pipe or redirect the lines into 'notes import -'") }
            } else {
                guard let contents = FileManager.default.contents(atPath: file) else {
                    throw CLIError.failure("cannot read \(file): check that it exists and is readable")
                }
                data = contents
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw CLIError.failure("\(file == "-" ? "standard input" : file) is not UTF-8 text: nothing was imported")
            }
            let added = try options.open().importLines(text.split(separator: "\n", omittingEmptySubsequences: false))
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            print("Imported \(count(added.notebooks, "notebook")) and \(count(added.notes, "note")).")
        }
    }
}
