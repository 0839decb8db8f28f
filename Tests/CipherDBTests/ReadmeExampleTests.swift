import Foundation
import TestSupport
import Testing

/// The README's "Using CipherDB in a package": a new package made of the
/// README's `Package.swift` and its short example, as written there,
/// depending on this checkout by path, built and run by `swift run`.
@Suite struct ReadmeExampleTests {
    /// The packages an app resolves through CipherDB, which the README
    /// names: none of the server's.
    static let resolvedThroughCipherDB = ["swift-argument-parser"]

    @Test func theReadmesPackageBuildsAndItsExampleRuns() async throws {
        let readme = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] + "\n" }
        let manifest = try #require(blocks.first { $0.hasPrefix("// swift-tools-version") })
        let example = try #require(blocks.first { $0.hasPrefix("import CipherDB") })

        // This checkout in a folder of another name than CipherDB, whose
        // path replaces the README's, as the README says to write it.
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(at: folder.url("cipherdb-clone"), withDestinationURL: BuiltProducts.packageRoot)
        let sources = folder.url("MyApp/Sources/MyApp")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try #require(manifest.contains(#"path: "../CipherDB""#))
        try manifest.replacingOccurrences(of: #"path: "../CipherDB""#, with: #"path: "../cipherdb-clone""#)
            .write(to: folder.url("MyApp/Package.swift"), atomically: true, encoding: .utf8)
        try example.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        // The one function the README leaves to the reader.
        try "func loadPassphrase() throws -> String { \"readme passphrase\" }\n"
            .write(to: sources.appendingPathComponent("Passphrase.swift"), atomically: true, encoding: .utf8)

        // `swift run`, as the README says, from the folder above the
        // package (where the app writes its database). Without debug
        // information or an index store, which the app does not need to
        // build and run: a quarter less of the suite's CPU for this build,
        // which compiles CipherDB whole. (`swift run` builds its product
        // only: not the plugins of swift-argument-parser, which a whole
        // `swift build` compiles too.)
        let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": folder.path]) { $1 }
        let app = ChildProcess()
        app.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        app.arguments = ["swift", "run", "-debug-info-format", "none", "--disable-index-store", "--package-path", folder.path("MyApp")]
        app.environment = environment
        app.currentDirectoryURL = folder.url
        let result = try await run(app)
        #expect(result.status == 0, "\(result.error)")
        guard result.status == 0 else { return }
        #expect(result.output == "[\"Arthur\"]\n")
        let checkouts = try FileManager.default.contentsOfDirectory(atPath: folder.path("MyApp/.build/checkouts")).sorted()
        #expect(checkouts == Self.resolvedThroughCipherDB)
        for package in Self.resolvedThroughCipherDB {
            #expect(readme.contains(package), "the README does not name \(package), which an app resolves")
        }
        // The database it wrote is encrypted: no plaintext SQLite header.
        let header = try Data(contentsOf: folder.url("players.sqlite")).prefix(16)
        #expect(header.count == 16 && header != Data("SQLite format 3\u{0}".utf8))
    }
}
