import ArgumentParser
import Foundation
import PlayersShared

extension PlayersCommand {
    /// `players schema`: Players' declaration, for a server that serves
    /// Players' table beside other apps' (`players-server --schema`).
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the declaration of the table Players syncs, for players-server --schema.",
            discussion: "Example: players schema > players.json; players-server --schema players.json --schema notes.json")

        func run() {
            FileHandle.standardOutput.write(PlayersSchema.schema.json())
        }
    }
}
