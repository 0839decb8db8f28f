import AppCommandLine
import ArgumentParser
import Foundation
import Players
import PlayersFiles
import PlayersShared

extension PlayersCommand {
    struct Decrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an encrypted JSON export.",
            discussion: """
                FILE is made by 'players export --format json', by this release or an earlier one. \
                Give the key it was encrypted with (--key-file, --passphrase-file, PLAYERS_PASSPHRASE, \
                or the default key file). FILE - reads standard input (a file named - is ./-).

                Example: players decrypt players.json
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The encrypted JSON export, or - for standard input.")
        var file: String

        func run() async throws {
            let name = file == StandardStream.argument ? StandardStream.inputName : file
            let data = try StandardStream.contents(of: file, command: "players decrypt", what: "the export")
            let key = try options.resolveKey()
            let json: Data
            do {
                json = try EncryptedFile.open(data, key: key.source)
                _ = try PlayersPayload.decode(json)
            } catch let error as PlayersFileError {
                throw CLIError.wrongKey("cannot decrypt \(name): \(error.description)")
            } catch let error as PlayersPayloadError {
                throw CLIError.wrongKey("cannot decrypt \(name): the JSON is not a players message (\(error))")
            }
            // Valid UTF-8: the payload decoder refuses anything else.
            print(JSONOutput.printable(String(decoding: json, as: UTF8.self)))
        }
    }
}
