import Foundation
import TestSupport
import Testing

/// The README's "Using CipherDB in a package": a new package made of the
/// README's `Package.swift` and its short example, as written there,
/// depending on this checkout by path, run by `swift run`
/// (`scripts/readme-example`, which `make build-tests` ran first to build
/// it: its compilation of CipherDB belongs to the build).
@Suite struct ReadmeExampleTests {
    /// The packages an app resolves through CipherDB, which the README
    /// names: none of the server's.
    static let resolvedThroughCipherDB = ["swift-argument-parser"]

    @Test func theReadmesPackageBuildsAndItsExampleRuns() async throws {
        let readme = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // The app writes its database in the folder it runs from.
        let folder = try TemporaryFolder()
        let script = BuiltProducts.packageRoot.appendingPathComponent("scripts/readme-example").path
        let result = try await run(script, ["run", folder.path])
        #expect(result.status == 0, "\(result.error)")
        guard result.status == 0 else { return }
        #expect(result.output == "[\"Arthur\"]\n")
        let package = BuiltProducts.packageRoot.appendingPathComponent(".build/readme-example/MyApp")
        let checkouts = try FileManager.default.contentsOfDirectory(atPath: package.appendingPathComponent(".build/checkouts").path).sorted()
        #expect(checkouts == Self.resolvedThroughCipherDB)
        for package in Self.resolvedThroughCipherDB {
            #expect(readme.contains(package), "the README does not name \(package), which an app resolves")
        }
        // The database it wrote is encrypted: no plaintext SQLite header.
        let header = try Data(contentsOf: folder.url("players.sqlite")).prefix(16)
        #expect(header.count == 16 && header != Data("SQLite format 3\u{0}".utf8))
    }
}
