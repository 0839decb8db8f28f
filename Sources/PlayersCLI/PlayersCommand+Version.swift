import ArgumentParser
import CommandLineBase

extension PlayersCommand {
    /// `players version`, as `git version`: the line of `players --version`
    /// (and `players -v`).
    struct Version: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the version, the SQLCipher and SQLite versions and the build.",
            discussion: "Example: players version")

        func run() {
            print(VersionReport.line(command: "players"))
        }
    }
}
