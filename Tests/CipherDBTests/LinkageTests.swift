import CCurl
import CipherDB
import CSQLCipher
import Foundation
import TestSupport
import Testing

@Suite struct LinkageTests {
    @Test func linkedLibraryIsSQLCipher() throws {
        let dbQueue = try DatabaseQueue()
        let version = try dbQueue.read { try $0.cipherVersion }
        #expect(!version.isEmpty)
        #expect(String(cString: sqlite3_libversion()) == "3.15.2")
    }

    @Test func processDoesNotLoadPlainSQLite() throws {
        // procfs files report a size of 0: read until the end.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let libraries = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        #expect(libraries.contains { $0.contains("libsqlcipher") })
        #expect(!libraries.contains { $0.contains("libsqlite3") })
    }

    @Test func libcurlIsAvailableWithHTTPS() throws {
        #expect(ccurl_load_error() == nil)
        let info = try #require(ccurl_version_info()).pointee
        let protocols = sequence(state: info.protocols) { cursor -> String? in
            guard let pointer = cursor?.pointee else { return nil }
            cursor = cursor?.advanced(by: 1)
            return String(cString: pointer)
        }
        #expect(Array(protocols).contains("https"))
    }

    /// libcurl is loaded by the first transfer, not when a program starts:
    /// `players` commands that do not sync never load it.
    @Test func aCommandThatDoesNotSyncDoesNotLoadLibcurl() async throws {
        let result = try await run(BuiltProducts.path("players"), ["--version"],
                                   environment: ["LD_DEBUG": "libs", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0)
        #expect(result.error.contains("libsqlcipher"))
        #expect(!result.error.contains("libcurl"))
    }

    /// libsodium is linked by what declares end-to-end tables alone
    /// (SyncSealing): `notes` does, `players` does not.
    @Test(arguments: [("players", false), ("notes", true)])
    func libsodiumIsLinkedOnlyByAnAppWithEndToEndTables(_ product: String, links: Bool) async throws {
        let result = try await run(BuiltProducts.path(product), ["--version"],
                                   environment: ["LD_DEBUG": "libs", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("libsodium") == links, "\(product)")
    }
}
