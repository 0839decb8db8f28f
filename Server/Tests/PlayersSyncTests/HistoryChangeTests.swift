import CipherDB
import CipherSync
import Foundation
import Players
import PlayersSync
import SyncEngine
import SyncServer
import TestSupport
import Testing

/// What the client does with answers of another history than its cursor's,
/// against scripted servers (ServerHistoryTests restore real servers).
@Suite struct HistoryChangeTests {
    static let arthur = "0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34"
    static let zaphod = "0E42CFD4-B6CA-4CC9-A1CE-408B94824A58"
    static let otherEpoch = "00000000000000e2"

    static func page(_ kind: String, cursor: String, _ players: [(uuid: String, score: Int, version: Int64)], epochs: String = "") -> String {
        let rows = players.map { ScriptedPage.playerRow(uuid: $0.uuid, name: "P", score: $0.score, version: Int($0.version)) }
        return #"{"protocolVersion":1,"kind":"\#(kind)","complete":true,"cursor":"\#(cursor)",\#(epochs)"rows":[\#(rows.joined(separator: ","))],"tombstones":[]}"#
    }

    /// A server that answers its requests with `steps`, in turn.
    func server(_ steps: [[ScriptedHTTPServer.Step]]) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { _, number in
            number < steps.count ? steps[number] : .json(#"{"error":{"message":"no more answers"}}"#, status: 404)
        }
    }

    @Test func aDeltaPageOfAnotherHistoryIsRefused() async throws {
        let server = try server([
            .json(Self.page("snapshot", cursor: ScriptedCursor.at(30), [(Self.arthur, 10, 3)])),
            .json(Self.page("delta", cursor: ScriptedCursor.at(31, epoch: Self.otherEpoch), [(Self.arthur, 11, 31)])),
        ])
        defer { server.stop() }
        let database = try ClientDatabase()
        let client = database.client(URL(string: server.baseURL)!)
        _ = try await client.sync()
        let before = try database.contentChecksum()
        await #expect(throws: SyncPayloadError(page: 1, path: "$.cursor", "belongs to another history than the cursor the page continues from")) {
            try await client.sync()
        }
        #expect(try database.contentChecksum() == before)
    }

    @Test func aSnapshotOfAnotherServerIsRefusedBeforeAnythingIsStaged() async throws {
        let server = try server([
            .json(Self.page("snapshot", cursor: ScriptedCursor.at(30), [(Self.arthur, 10, 3)])),
            .json(Self.page("snapshot", cursor: ScriptedCursor.at(5, server: "00000000-0000-4000-8000-0000000000BB"), [(Self.zaphod, 1, 5)])),
        ])
        defer { server.stop() }
        let database = try ClientDatabase()
        let client = database.client(URL(string: server.baseURL)!)
        _ = try await client.sync()
        let before = try database.contentChecksum()
        await #expect(throws: SyncError.otherServer) { try await client.sync(full: true) }
        #expect(try database.contentChecksum() == before)
    }

    /// Without `epochs`, the client cannot tell where the histories part:
    /// every synced value that differs from the server's is kept as a
    /// conflict, none pushed over the server's.
    @Test func aHistoryThatWentBackToAnUnknownPointKeepsEveryDifferingValueAsAConflict() async throws {
        let server = try server([
            .json(Self.page("snapshot", cursor: ScriptedCursor.at(30), [(Self.arthur, 10, 3)])),
            .json(Self.page("delta", cursor: ScriptedCursor.at(32), [(Self.arthur, 11, 31), (Self.zaphod, 42, 32)])),
            .json(#"{"error":{"message":"the cursor is from before this server's database was restored from a backup"}}"#, status: 410),
            .json(Self.page("snapshot", cursor: ScriptedCursor.at(30, epoch: Self.otherEpoch), [(Self.arthur, 10, 3)])),
        ])
        defer { server.stop() }
        let database = try ClientDatabase()
        let client = database.client(URL(string: server.baseURL)!)
        _ = try await client.sync()
        _ = try await client.sync()
        let report = try await client.sync()
        #expect(report.historyChange == .wentBack)
        #expect(report.requeued == 2)
        #expect(try database.players().map { "\($0.uuid.uuidString) \($0.score)" } == ["\(Self.arthur) 10"])
        let conflicts = try database.appDatabase.conflicts()
        #expect(conflicts.map { "\($0.playerUUID.uuidString) \($0.localScore ?? -1) \($0.serverScore ?? -1)" }
            == ["\(Self.arthur) 11 10", "\(Self.zaphod) 42 -1"])
        #expect(try database.appDatabase.pendingChangeCount() == 0)
    }

    /// With `epochs`, the client knows what the server lost: a value from
    /// after the shared point is pushed again, on the server's version.
    @Test func aHistoryThatWentBackToAKnownPointQueuesWhatTheServerLost() async throws {
        let epochs = #""epochs":[{"epoch":"\#(ScriptedCursor.epoch)","start":0},{"epoch":"\#(Self.otherEpoch)","start":30}],"#
        let server = try server([
            .json(Self.page("snapshot", cursor: ScriptedCursor.at(30), [(Self.arthur, 10, 3)])),
            .json(Self.page("delta", cursor: ScriptedCursor.at(32), [(Self.arthur, 11, 31), (Self.zaphod, 42, 32)])),
            .json(Self.page("snapshot", cursor: ScriptedCursor.at(30, epoch: Self.otherEpoch), [(Self.arthur, 10, 3)], epochs: epochs)),
        ])
        defer { server.stop() }
        let database = try ClientDatabase()
        let client = database.client(URL(string: server.baseURL)!)
        _ = try await client.sync()
        _ = try await client.sync()
        let report = try await client.sync(full: true)
        #expect(report.historyChange == .wentBack && report.requeued == 2)
        // Each queued whole, on the version the server has (none: the
        // server has no such player); its values are the player's.
        let pending = try await database.appDatabase.reader.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
        #expect(pending.map { "\($0.rowID.uuidString) \($0.operation) \($0.changedColumns) \($0.baseVersion.map(String.init) ?? "new")" }
            == ["\(Self.arthur) upsert [\"score\", \"name\"] 3", "\(Self.zaphod) upsert [\"score\", \"name\"] new"])
        // Kept as they were, until the push settles them.
        #expect(try database.players().map { "\($0.uuid.uuidString) \($0.score)" } == ["\(Self.arthur) 11", "\(Self.zaphod) 42"])
    }
}
