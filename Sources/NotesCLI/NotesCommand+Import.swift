import AppCommandLine
import ArgumentParser
import Foundation
import Notes

extension NotesCommand {
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
            let data = try StandardStream.contents(of: file, command: "notes import", what: "the lines")
            guard let text = String(data: data, encoding: .utf8) else {
                throw CLIError.failure("\(file == StandardStream.argument ? StandardStream.inputName : file) is not UTF-8 text: nothing was imported")
            }
            let added = try options.open().importLines(text.split(separator: "\n", omittingEmptySubsequences: false))
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            print("Imported \(count(added.notebooks, "notebook")) and \(count(added.notes, "note")).")
        }
    }
}
