import Foundation
import TestSupport
import Testing

/// What the built `players-server` links: SQLCipher, never plain SQLite,
/// no HTTP client (the server's modules do not import CipherSync), and no
/// code of the client's database layer (Docs/Architecture.md).
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

    /// The Swift modules whose code the executable holds, by the module
    /// name in the mangled names of its defined symbols (`$s7Players…`
    /// for `Players`).
    func modulesOfDefinedSymbols() async throws -> Set<String> {
        let result = try await run("/usr/bin/nm", ["--defined-only", try BuiltProducts.path("players-server")])
        #expect(result.status == 0, "\(result.error)")
        var modules = Set<String>()
        for line in result.output.split(separator: "\n") {
            guard let symbol = line.split(separator: " ").last, symbol.hasPrefix("$s") else { continue }
            let digits = symbol.dropFirst(2).prefix { $0.isNumber }
            guard let length = Int(digits), length > 0 else { continue }
            modules.insert(String(symbol.dropFirst(2 + digits.count).prefix(length)))
        }
        return modules
    }

    @Test func playersServerHoldsNoCodeOfTheClientsPlayersModules() async throws {
        let modules = try await modulesOfDefinedSymbols()
        // The check itself: the server's own modules are found.
        #expect(modules.contains("PlayersOnServer"), "\(modules.sorted())")
        #expect(modules.contains("AppFiles"), "\(modules.sorted())")
        for client in ["Players", "PlayersFiles", "PlayersSync", "CipherSync"] {
            #expect(!modules.contains(client), "players-server holds code of \(client)")
        }
    }
}
