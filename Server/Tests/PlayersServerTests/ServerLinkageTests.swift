import Foundation
import TestSupport
import Testing

/// What the built `players-server` links: SQLCipher, never plain SQLite,
/// and no HTTP client (the server's modules do not import CipherSync:
/// Docs/Architecture.md).
@Suite struct ServerLinkageTests {
    /// The shared libraries that `ldd` lists for the executable.
    func linkedLibraries() async throws -> [String] {
        let result = try await run("/usr/bin/ldd", [try BuiltProducts.path("players-server")])
        #expect(result.status == 0, "\(result.error)")
        // Lines such as "\tlibcurl.so.4 => /lib/…/libcurl.so.4 (0x…)".
        return result.output.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
    }

    @Test func playersServerDoesNotLinkLibcurl() async throws {
        let libraries = try await linkedLibraries()
        #expect(libraries.contains { $0.hasPrefix("libsqlcipher") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libcurl") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libsqlite3") }, "\(libraries)")
    }
}
