import CipherDB
import Foundation
import Synchronization
import Testing

/// `Database.logError`: SQLite's error log.
@Suite struct ErrorLogTests {
    @Test func sqlitesErrorLogReachesTheFunctionOfTheMoment() throws {
        // Set after connections were opened (by other tests, and below):
        // CipherDB installed SQLite's callback before the first one.
        let dbQueue = try DatabaseQueue(configuration: encryptedConfiguration())
        let token = "missing_\(UUID().uuidString.prefix(8))"
        let messages = Mutex<[(ResultCode, String)]>([])
        Database.logError = { resultCode, message in
            // Other tests run at the same time: keep this test's messages.
            if message.contains(token) { messages.withLock { $0.append((resultCode, message)) } }
        }
        defer { Database.logError = nil }
        _ = try dbQueue.read { (db) throws in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT * FROM \(token)") }
        }
        let logged = messages.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.0 == .SQLITE_ERROR)
        #expect(logged.first?.1 == "no such table: \(token)")
    }
}
