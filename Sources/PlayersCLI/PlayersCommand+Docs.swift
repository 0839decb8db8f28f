import AppCommandLine
import ArgumentParser
import Foundation

extension PlayersCommand {
    /// `players docs sync`: a page of the documentation that the help
    /// refers to, as `make install` installs it next to `players`
    /// (PREFIX/share/doc/players), or else as it is in the source tree
    /// that `players` was built from.
    struct Docs: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a page of the documentation (Markdown), or list the pages.",
            discussion: """
                The pages are those of the Docs folder, which 'make install' installs in \
                PREFIX/share/doc/players, next to PREFIX/bin/players.

                Example: players docs sync | less
                """)

        @Argument(help: ArgumentHelp("The page to print (sync, cli, …); without it, the list of pages.", valueName: "page"),
                  completion: .list(Self.pageNames))
        var page: String?

        /// The names of the pages, for the shells' completion scripts: none
        /// when the documentation is missing.
        static var pageNames: [String] {
            folder.flatMap { try? pages(in: $0).keys.sorted() } ?? []
        }

        func run() throws {
            guard let folder = Self.folder else {
                throw CLIError.failure("the documentation is neither installed next to players (\(Self.installedFolder.path)) "
                    + "nor in the source tree it was built from: install it with 'make install'")
            }
            let pages = try Self.pages(in: folder)
            guard let page else {
                for name in pages.keys.sorted() { print("players docs \(name)") }
                return
            }
            guard let file = pages[page.lowercased()] else {
                throw CLIError.usage("there is no page '\(page)': the pages are \(pages.keys.sorted().joined(separator: ", ")).")
            }
            print(try String(contentsOf: file, encoding: .utf8), terminator: "")
        }

        /// Where `make install` puts the pages: share/doc/players beside
        /// the folder of the running `players`.
        static var installedFolder: URL {
            (Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe")).resolvingSymlinksInPath()
                .deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("share/doc/players", isDirectory: true)
        }

        /// The Docs folder of the source tree this file was built in.
        static let sourceFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Docs", isDirectory: true)

        /// The installed pages, or else the source tree's.
        static var folder: URL? {
            [installedFolder, sourceFolder].first { folder in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
            }
        }

        /// The pages of `folder` by name: a file's name, lowercased,
        /// without `.md` (SyncProtocol.md is `syncprotocol`).
        static func pages(in folder: URL) throws -> [String: URL] {
            let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            return Dictionary(files.filter { $0.pathExtension == "md" }.map {
                ($0.deletingPathExtension().lastPathComponent.lowercased(), $0)
            }, uniquingKeysWith: { first, _ in first })
        }
    }
}
