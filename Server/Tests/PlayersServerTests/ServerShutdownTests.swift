import CipherDB
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite struct ServerShutdownTests {
    @Test func sigtermLeavesEveryPlayerInTheDatabaseFileAlone() throws {
        let server = try ServerProcess(["--database", "server.db", "--seed", "10"], environment: ServerDatabase.environment)
        for index in 0..<20 {
            #expect(try server.request("POST", "/v1/players", headers: jsonHeaders, body: playerJSON(index)).status == 201)
        }
        // Reads too, as clients sync: the pool opens reader connections.
        for _ in 0..<3 { #expect(try server.request("GET", "/v1/players").status == 200) }
        #expect(server.stop(SIGTERM) == 0)
        let walSize = (try? FileManager.default.attributesOfItem(atPath: server.path("server.db-wal"))[.size] as? Int) ?? 0
        #expect(walSize == 0)
        // The documented cold backup: a copy of the file alone.
        let copyFolder = try TemporaryFolder()
        let copy = copyFolder.path("copy.db")
        try FileManager.default.copyItem(atPath: server.path("server.db"), toPath: copy)
        #expect(try ServerDatabase.playerCount(copy) == 30)
    }

    @Test func sigtermFinishesTheRequestInProgress() async throws {
        let server = try ServerProcess(["--database", "server.db"], environment: ServerDatabase.environment)
        // On threads of their own: the timings must not depend on the
        // cooperative threads that other tests keep busy.
        let (status, exitStatus) = try await onThread {
            let lock = try WriteLockHolder(server.path("server.db"))
            // The POST waits for the lock in the server…
            let response = Mutex<Int?>(nil)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                let status = try? server.request("POST", "/v1/players", headers: jsonHeaders, body: playerJSON(1)).status
                response.withLock { $0 = status }
            }
            // (Time for a busy machine to deliver it.)
            Thread.sleep(forTimeInterval: 1.5)
            // …when the server is asked to stop; then the lock goes.
            kill(server.process.processIdentifier, SIGTERM)
            Thread.sleep(forTimeInterval: 0.3)
            lock.unlock()
            group.wait()
            return (response.withLock { $0 }, server.stop(SIGTERM))
        }
        #expect(status == 201, "\(server.errorOutput)")
        #expect(exitStatus == 0)
        #expect(try ServerDatabase.playerCount(server.path("server.db")) == 1)
    }
}

/// Long-polls at shutdown: answered at once, not after their wait.
@Suite struct LongPollShutdownTests {
    @Test func sigtermReleasesALongPollAtOnceWithTheEmptyDelta() async throws {
        let server = try ServerProcess(["--seed", "3"])
        let (response, heldUntilSignal, gaugeWhileHeld, released, exitStatus) = try await onThread {
            let response = Mutex<RawHTTP.Response?>(nil)
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) {
                let answer = try? server.request("GET", "/v1/players?since=3&wait=60", timeout: 30)
                response.withLock { $0 = answer }
            }
            // (Time for a busy machine to deliver the request.)
            Thread.sleep(forTimeInterval: 1)
            let heldUntilSignal = response.withLock { $0 == nil }
            let metrics = try server.request("GET", "/metrics").body
            let gauge = metrics.split(separator: "\n").first { $0.hasPrefix("players_server_long_polls_open ") }
            let start = Date()
            kill(server.process.processIdentifier, SIGTERM)
            group.wait()
            let released = Date().timeIntervalSince(start)
            return (response.withLock { $0 }, heldUntilSignal, gauge.map(String.init), released, server.stop(SIGTERM))
        }
        #expect(heldUntilSignal, "the long-poll was held until the signal")
        #expect(gaugeWhileHeld == "players_server_long_polls_open 1.0")
        #expect(released < 1, "released after \(released) s")
        #expect(response?.status == 200)
        #expect(response?.body.contains(#""cursor":"3""#) == true)
        #expect(response?.body.contains(#""players":[]"#) == true)
        #expect(exitStatus == 0)
    }
}
