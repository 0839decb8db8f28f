import Foundation
import Synchronization
import TestSupport
import Testing

/// Connections that hold the server: idle ones, slow ones, too many, and
/// writes that wait for the database lock.
@Suite struct ConnectionLimitTests {
    @Test func idleConnectionsAreClosed() throws {
        let server = try ServerProcess(["--idle-timeout", "1s"])
        let silent = try RawHTTP(port: server.port, timeout: 5)
        let start = Date()
        #expect(silent.isClosedByServer)
        #expect(Date().timeIntervalSince(start) < 4)
        // Half a request head is idle too.
        let halfHead = try RawHTTP(port: server.port, timeout: 5)
        try halfHead.send("GET /v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(halfHead.isClosedByServer)
    }

    @Test func requestsThatDoNotArriveWholeAreCut() throws {
        let server = try ServerProcess(["--read-timeout", "1s"])
        let slow = try RawHTTP(port: server.port, timeout: 5)
        try slow.send("POST /v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":")
        let start = Date()
        let answer = slow.readToEnd()
        #expect(answer != nil)
        #expect(Date().timeIntervalSince(start) < 4)
        #expect(try server.request("GET", "/v1/players").status == 200)
    }

    @Test func connectionsBeyondTheLimitWaitForAFreeOne() throws {
        let server = try ServerProcess(["--max-connections", "2"])
        var held = [try RawHTTP(port: server.port), try RawHTTP(port: server.port)]
        // Both are accepted: each answers a keep-alive request.
        for connection in held {
            try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(throws: (any Error).self) { try RawHTTP.request(port: server.port, "GET", "/healthz", host: "127.0.0.1", timeout: 1) }
        held.removeFirst()
        #expect(try RawHTTP.request(port: server.port, "GET", "/healthz", host: "127.0.0.1", timeout: 5).status == 200)
    }

    @Test func writesWaitingForTheDatabaseLockDoNotStallReads() async throws {
        let server = try ServerProcess(["--database", "server.db", "--seed", "5"], environment: ServerDatabase.environment)
        // On threads of their own: the timings must not depend on the
        // cooperative threads that other tests keep busy.
        let (read, readDuration, writes) = try await onThread {
            let lock = try WriteLockHolder(server.path("server.db"))
            // More writes than the server has threads of any kind.
            let writes = Mutex<[(status: Int, end: Date)]>([])
            let group = DispatchGroup()
            for index in 0..<16 {
                DispatchQueue.global().async(group: group) {
                    let status = (try? server.request("POST", "/v1/players", headers: jsonHeaders, body: playerJSON(index)).status) ?? 0
                    writes.withLock { $0.append((status, Date())) }
                }
            }
            Thread.sleep(forTimeInterval: 0.5)
            let start = Date()
            let read = try server.request("GET", "/v1/players", timeout: 10)
            let readDuration = Date().timeIntervalSince(start)
            let unlocked = Date()
            lock.unlock()
            group.wait()
            // The writes did wait for the lock.
            let writesEnd = writes.withLock { $0 }.map(\.end).min() ?? .distantPast
            #expect(writesEnd >= unlocked)
            return (read, readDuration, writes.withLock { $0.map(\.status) })
        }
        #expect(read.status == 200)
        #expect(readDuration < 1, "a read waited \(readDuration) s behind writes")
        #expect(writes == Array(repeating: 201, count: 16))
    }
}
