import Foundation
import Synchronization
import TestSupport
import Testing

/// Connections that hold the server: idle ones, slow ones, too many, and
/// writes that wait for the database lock. Nothing here times the server:
/// a connection nothing else closes is closed by its timeout, and the
/// waits are on what the server shows (its answers, its metrics).
@Suite struct ConnectionLimitTests {
    @Test func idleConnectionsAreClosed() throws {
        let server = try ServerProcess(["--idle-timeout", "1s"])
        let silent = try RawHTTP(port: server.port)
        #expect(silent.isClosedByServer)
        // Half a request head is idle too.
        let halfHead = try RawHTTP(port: server.port)
        try halfHead.send("GET /v1/sync/rows HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        #expect(halfHead.isClosedByServer)
    }

    @Test func requestsThatDoNotArriveWholeAreCut() throws {
        // An idle timeout longer than the hang guard: only the read
        // timeout can close this connection within it.
        let server = try ServerProcess(["--read-timeout", "1s", "--idle-timeout", "1h"])
        let slow = try RawHTTP(port: server.port)
        try slow.send("POST /v1/rows/player HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":")
        #expect(slow.readToEnd() != nil)
        #expect(try server.request("GET", "/v1/sync/rows").status == 200)
    }

    @Test func anIdleConnectionMakesRoomForANewOneAtTheLimit() throws {
        // Idle connections stay open for the hang guard's whole length:
        // only the limit can close one.
        let server = try ServerProcess(["--max-connections", "3", "--idle-timeout", "1h", "--header-timeout", "1h"])
        let held = [try RawHTTP(port: server.port), try RawHTTP(port: server.port)]
        for connection in held {
            try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
        }
        // The third reaches the limit: the connection idle for longest is
        // closed for it, and it is answered.
        let third = try RawHTTP(port: server.port)
        try third.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = try #require(third.readToEnd(), "the third connection answered")
        #expect(try RawHTTP.parse(answer).status == 200)
        #expect(held[0].isClosedByServer)
        try held[1].send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(try held[1].readResponse().status == 200)
    }

    @Test func connectionsThatSendNothingCannotKeepARequestOut() throws {
        // Neither timeout can close them within the hang guard: only
        // closing the idle ones first lets the request in.
        let server = try ServerProcess(["--max-connections", "16", "--idle-timeout", "1h", "--header-timeout", "1h"])
        let silent = try (0..<300).map { _ in try RawHTTP(port: server.port) }
        #expect(try server.request("GET", "/health").status == 200)
        // All but those that fit under the limit were closed for others.
        try waitUntilBlocking("the server to close all but 15 of 300 silent connections") {
            silent.filter(\.isClosedNow).count >= 300 - 15
        }
    }

    @Test func aConnectionThatSendsNoRequestHeadIsClosedByTheHeaderTimeout() throws {
        let server = try ServerProcess(["--header-timeout", "1s", "--idle-timeout", "1h"])
        let silent = try RawHTTP(port: server.port)
        #expect(silent.isClosedByServer)
        // A request within it is served as usual.
        #expect(try server.request("GET", "/health").status == 200)
    }

    @Test func writesWaitingForTheDatabaseLockDoNotStallReads() async throws {
        let server = try ServerProcess(["--database", "server.db", "--seed", "5"], environment: ServerDatabase.environment)
        // On threads of their own: the writes block theirs until the lock goes.
        let (read, writes) = try await onThread {
            let lock = try TransactionHolder.writeLock(server.path("server.db"))
            // More writes than the server has threads of any kind.
            let writes = Mutex<[Int]>([])
            let group = DispatchGroup()
            for index in 0..<16 {
                onNewThread(in: group) {
                    let status = (try? server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(index)).status) ?? 0
                    writes.withLock { $0.append(status) }
                }
            }
            // The 16 writes, and the request that counts them.
            try waitUntilBlocking("16 writes in progress in the server") {
                try server.metric("players_server_requests_in_progress") == 17
            }
            // Answered while the writes still wait: the lock goes only after.
            let read = try server.request("GET", "/v1/sync/rows")
            #expect(writes.withLock { $0 }.isEmpty, "no write ended before the lock went")
            lock.unlock()
            group.wait()
            return (read, writes.withLock { $0 })
        }
        #expect(read.status == 200)
        #expect(writes == Array(repeating: 201, count: 16))
    }
}
