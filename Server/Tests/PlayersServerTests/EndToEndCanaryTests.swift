import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// Notes' end-to-end notebooks and notes against the real `players-server`
/// on each store (Docs/EndToEnd.md): a thousand unique strings written by
/// two users on their devices reach every device of the users who read
/// them, and nothing else: not the server's store opened with its own key,
/// its log, its metrics, nor a third user.
@Suite struct EndToEndCanaryTests {
    @Test(arguments: StoreKind.allCases)
    func noCanaryReachesTheServerOrAThirdUser(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let users = try await NotesUsersTests.Users.start(sandbox)
            let aliceLaptop = try await users.device("alice-laptop", of: "alice")
            let alicePhone = try await users.device("alice-phone", of: "alice")
            let bobLaptop = try await users.device("bob-laptop", of: "bob")
            let bobPhone = try await users.device("bob-phone", of: "bob")
            let carol = try await users.device("carol-laptop", of: "carol")
            // Their identity keys published, so that shares reach them.
            for device in [bobLaptop, bobPhone, carol] { try await device.sync() }
            let shared = try await aliceLaptop.add(["notebook", "add", "Shared"])
            let own = try await aliceLaptop.add(["notebook", "add", "Own"])
            try await aliceLaptop.run(["notebook", "share", shared, "--with", "bob"])
            try await aliceLaptop.sync()
            try await bobLaptop.sync()

            // 1,000 canaries, one in each note's title and body: alice's
            // 250 in her own notebook and 250 in the shared one, bob's 500
            // in the shared one.
            let canaries = (0..<1_000).map { _ in "canary-\(UUID().uuidString.lowercased())" }
            func lines(_ canaries: ArraySlice<String>, notebook: String) -> String {
                canaries.map { canary in
                    #"{"id":"\#(UUID().uuidString)","table":"note","values":{"body":"the body of \#(canary)","notebook":"\#(notebook)","title":"\#(canary)"}}"#
                }.joined(separator: "\n") + "\n"
            }
            let aliceOwn = canaries[0..<250], aliceShared = canaries[250..<500], bobShared = canaries[500..<1_000]
            _ = try await aliceLaptop.process.run(["import", "-"], input: lines(aliceOwn, notebook: own) + lines(aliceShared, notebook: shared))
            _ = try await bobLaptop.process.run(["import", "-"], input: lines(bobShared, notebook: shared))
            for device in [aliceLaptop, bobLaptop, aliceLaptop, alicePhone, bobPhone, carol] { try await device.sync() }

            // Each device of an allowed user reads them all.
            for device in [aliceLaptop, alicePhone] {
                #expect(Set(try await device.names().notes) == Set(canaries), "\(device.process.name)")
            }
            for device in [bobLaptop, bobPhone] {
                #expect(Set(try await device.names().notes) == Set(aliceShared + bobShared), "\(device.process.name)")
            }

            // None is anywhere else.
            var places: [(String, String)] = [("the server's log", users.server.errorOutput)]
            let operatorToken = try await users.token("ops", roles: ["metrics"])
            places.append(("/metrics", try users.request("GET", "/metrics", token: operatorToken).body))
            let carolToken = try await users.token("carol")
            for path in ["/v1/sync/rows", "/v1/keys/wrapped", "/v1/rows/note/\(UUID().uuidString)"] {
                places.append(("carol's \(path)", try users.request("GET", path, token: carolToken).body))
            }
            places.append(("carol's device", try await carol.run(["list", "--json"])))
            let store = try await Self.storeDump(sandbox)
            #expect(store.contains(shared) && store.contains("bob"), "the dump holds the rows: ids and memberships are in the clear")
            places.append(("the server's store", store))
            for (place, text) in places {
                #expect(!text.contains("canary-"), "a canary in \(place)")
            }
            #expect(try users.server.stop() == 0)
        }
    }

    /// The whole of the server's store as its operator reads it with its
    /// own key: the `sqlcipher` shell's `.dump` of the embedded file, or
    /// `pg_dump` of the PostgreSQL database.
    static func storeDump(_ sandbox: StoreSandbox) async throws -> String {
        switch sandbox.kind {
        case .embedded:
            let key = try String(contentsOfFile: sandbox.keyFilePath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let result = try await run("/usr/bin/sqlcipher", [sandbox.databasePath],
                                       input: "PRAGMA key = \"x'\(key)'\";\nPRAGMA cipher_page_size = 4096;\n.dump\n")
            try #require(result.status == 0, "\(result.error)")
            try #require(result.output.contains("CREATE TABLE"), "the dump opened the file: \(result.output.prefix(200))")
            return result.output
        case .postgres:
            return try await ServerHistoryTests.runPostgresTool("pg_dump", ["--dbname=\(try sandbox.postgresURLString())"])
        }
    }
}
