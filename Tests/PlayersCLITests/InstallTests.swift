import Foundation
import TestSupport
import Testing

/// `make install` as the README runs it, in the configuration the tests
/// were built in (`make test` built it already).
@Suite struct InstallTests {
    /// An install over a built tree compiles and links nothing: the
    /// executables that other tests are running stay the same files
    /// (relinking one under a running test makes `exec` fail with "Text
    /// file busy").
    @Test func installingABuiltTreeBuildsNothing() async throws {
        let prefix = try TemporaryFolder()
        let executables = try ["players", "players-server"].map { try BuiltProducts.path($0) }
        let before = try executables.map(Self.identity)
        let result = try await run("/usr/bin/env", ["make", "-C", BuiltProducts.packageRoot.path, "install",
                                                    "PREFIX=\(prefix.path)", "CONFIGURATION=\(BuiltProducts.configuration)"])
        #expect(result.status == 0, "make install failed:\n\(result.output + result.error)")
        // SwiftPM compiles the plugins of swift-argument-parser on every
        // build; they are not installed, and nothing else may be built.
        let built = result.output.split(separator: "\n").filter {
            ($0.contains("Compiling ") || $0.contains("Linking ")) && !$0.contains("Compiling plugin ")
        }
        #expect(built.isEmpty, "make install rebuilt a built tree:\n\(built.joined(separator: "\n"))")
        #expect(try executables.map(Self.identity) == before)
        for name in ["players", "players-server"] {
            #expect(FileManager.default.isExecutableFile(atPath: prefix.path("bin/\(name)")))
        }
    }

    /// A file's inode and modification time: what a relink changes.
    private static func identity(_ path: String) throws -> [Int] {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let modified = try #require(attributes[.modificationDate] as? Date)
        return [try #require(attributes[.systemFileNumber] as? Int), Int(modified.timeIntervalSince1970 * 1_000_000)]
    }
}
