import CCurl
import CipherDB
import CSQLCipher
import Foundation
import Testing

@Suite struct LinkageTests {
    @Test func linkedLibraryIsSQLCipher() throws {
        let dbQueue = try DatabaseQueue()
        let version = try dbQueue.read { try $0.cipherVersion }
        #expect(!version.isEmpty)
        #expect(String(cString: sqlite3_libversion()) == "3.15.2")
    }

    @Test func processDoesNotLoadPlainSQLite() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let libraries = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        #expect(libraries.contains { $0.contains("libsqlcipher") })
        #expect(!libraries.contains { $0.contains("libsqlite3") })
    }

    @Test func libcurlIsAvailableWithHTTPS() throws {
        let info = curl_version_info(CURLVERSION_NOW).pointee
        let protocols = sequence(state: info.protocols) { cursor -> String? in
            guard let pointer = cursor?.pointee else { return nil }
            cursor = cursor?.advanced(by: 1)
            return String(cString: pointer)
        }
        #expect(Array(protocols).contains("https"))
    }
}
