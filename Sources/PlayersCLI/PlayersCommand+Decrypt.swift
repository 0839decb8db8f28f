import ArgumentParser
import Foundation
import Players
import PlayersFiles
import PlayersProtocol

extension PlayersCommand {
    struct Decrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an encrypted JSON export.",
            discussion: """
                FILE is made by 'players export --format json', by this release or an earlier one. \
                Give the key it was encrypted with (--key-file, --passphrase-file, PLAYERS_PASSPHRASE, \
                or the default key file).
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The encrypted JSON export.")
        var file: String

        func run() async throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CLIError.failure("cannot read \(file): check that it exists and is readable")
            }
            let key = try options.resolveKey()
            let json: Data
            do {
                json = try EncryptedFile.open(data, key: key.source)
                _ = try PlayersPayload.decode(json)
            } catch let error as DatabaseFileError {
                throw CLIError.wrongKey("cannot decrypt \(file): \(error.description)")
            } catch let error as PlayersPayloadError {
                throw CLIError.wrongKey("cannot decrypt \(file): the JSON is not a players message (\(error))")
            }
            // Valid UTF-8: the payload decoder refuses anything else.
            print(JSONOutput.printable(String(decoding: json, as: UTF8.self)))
        }
    }
}
