import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// Docs/Server.md, "PostgreSQL": its commands read from the page and run
/// as written, on a database of the test cluster (its URL in place of the
/// page's, loopback and free ports in place of the page's addresses).
@Suite struct DocumentedPostgresTests {
    static let page = "Docs/Server.md"
    static let documentedURL = "postgres://players:secret@db.internal:5432/players?sslmode=verify-full"

    /// The shell's environment: the built executables first on the PATH.
    static func shellEnvironment(_ extra: [String: String] = [:]) throws -> [String: String] {
        let path = (try BuiltProducts.folders().map(\.path) + ["/usr/bin", "/bin"]).joined(separator: ":")
        return ServerProcess.environment(["PATH": path].merging(extra) { _, new in new })
    }

    @Test func twoInstancesStartedAsDocumentedServeTheSamePlayers() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let commands = try DocumentedCommands.commands(in: Self.page, after: "## PostgreSQL")
            try #require(commands.count == 3)
            try #require(commands[0].contains(Self.documentedURL))
            let local = try commands.map {
                $0.replacingOccurrences(of: Self.documentedURL, with: try sandbox.postgresURLString())
                    .replacingOccurrences(of: #"--host 10\.0\.0\.1[12] --port 8080"#, with: "--host 127.0.0.1 --port 0", options: .regularExpression)
            }
            let folder = try TemporaryFolder()
            #expect(FileManager.default.createFile(atPath: folder.path("token"), contents: Data("team-token".utf8),
                                                   attributes: [.posixPermissions: 0o600]))
            // The script waits for its servers, which the test stops.
            let script = (local + ["wait"]).joined(separator: "\n")
            let shell = ChildProcess()
            shell.executableURL = URL(fileURLWithPath: "/bin/bash")
            shell.arguments = ["-c", script]
            shell.environment = try Self.shellEnvironment()
            shell.currentDirectoryURL = folder.url
            let output = folder.url("shell.out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            // One open file for both streams: two would each write from
            // their own offset, and a line on one would overwrite a line
            // of the other.
            let outputFile = try FileHandle(forWritingTo: output)
            shell.standardOutput = outputFile
            shell.standardError = outputFile
            try shell.run()
            defer {
                for server in Self.children(of: shell.processIdentifier) { kill(server, SIGKILL) }
                shell.waitUntilExit()
            }
            var ports: [Int] = []
            // What the servers printed, on a failure.
            defer {
                if ports.count < 2 { Issue.record("the documented commands printed: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")") }
            }
            try await waitUntil("the two documented players-server instances to print their listening lines") {
                ports = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n")
                    .filter { $0.hasPrefix("players-server listening on") }.compactMap { $0.split(separator: ":").last.flatMap { Int($0) } }
                guard ports.count == 2 || shell.isRunning else {
                    throw TestFailure("the documented commands ended: \((try? String(contentsOf: output, encoding: .utf8)) ?? "")")
                }
                return ports.count == 2
            }
            let auth = ["Authorization": "Bearer team-token", "Content-Type": "application/json"]
            let created = try RawHTTP.request(port: ports[0], "POST", "/v1/rows/player", host: "127.0.0.1:\(ports[0])", headers: auth,
                                              body: #"{"values":{"name":"Ford","score":7}}"#)
            #expect(created.status == 201)
            let read = try RawHTTP.request(port: ports[1], "GET", "/v1/sync/rows", host: "127.0.0.1:\(ports[1])", headers: auth)
            #expect(read.body.contains(#""name":"Ford""#))
            // Both stop on SIGTERM, and the script's wait ends with them.
            for server in Self.children(of: shell.processIdentifier) { kill(server, SIGTERM) }
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
        }
    }

    /// The processes that `pid` started (Linux's /proc).
    static func children(of pid: Int32) -> [Int32] {
        let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return list.split(separator: " ").compactMap { Int32($0) }
    }

    @Test func theDocumentedDumpRestoresTheDatabaseAsItWas() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let commands = try DocumentedCommands.commands(in: Self.page, after: "### Backups and encryption on PostgreSQL")
            try #require(commands.count == 2)
            let environment = try Self.shellEnvironment(["PLAYERS_SERVER_POSTGRES_URL": try sandbox.postgresURLString()])
            let folder = try TemporaryFolder()
            func shell(_ command: String) async throws {
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.arguments = ["-c", command]
                process.environment = environment
                process.currentDirectoryURL = folder.url
                let result = try await run(process)
                #expect(result.status == 0, "\(command): \(result.error)")
            }

            var store = try await sandbox.makeStore()
            let kept = try await store.insert(name: "Kept", score: 1)
            let dropped = try await store.insert(name: "Dropped", score: 2)
            _ = try await store.delete(dropped.uuid)
            let dumped = try await store.state()
            try await shell(commands[0])
            _ = try await store.insert(name: "After the dump", score: 3)
            try await store.update(kept.uuid, score: 99)
            try await store.close()

            try await shell(commands[1])
            store = try await sandbox.makeStore()
            #expect(try await store.state() == dumped)
            #expect(try await store.insert(name: "Next", score: 4).version == 4)
            try await store.close()
        }
    }
}
