import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// Two devices of one app syncing through the real server on loopback,
/// over libcurl, on both server stores: rows of every declared table go
/// both ways, edits of different columns of a row merged by column both
/// survive, an edit of the same notebook by both is a conflict kept, and
/// a delete reaches the other device with what it cascades to.
@Suite struct SyncEngineSyncTests {
    let work = UUID().uuidString, groceries = UUID().uuidString

    func withServer(_ kind: StoreKind, _ body: @Sendable (URL) async throws -> Void) async throws {
        try await APITestServer.with(kind, engine: .testNotes) { server in
            try await body(URL(string: "http://127.0.0.1:\(server.client.port)")!)
        }
    }

    /// Device `a` makes a notebook with a note; both devices sync.
    func shared(_ url: URL) async throws -> (a: NotesDevice, b: NotesDevice) {
        let (a, b) = (try NotesDevice(), try NotesDevice())
        try a.execute("INSERT INTO notebook (id, name) VALUES (?, 'Work')", [work])
        try a.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Groceries')", [groceries, work])
        let first = try await a.sync(url)
        #expect(first.pushed.applied == 2)
        _ = try await b.sync(url)
        return (a, b)
    }

    @Test(arguments: StoreKind.allCases)
    func aDevicesRowsReachTheOtherDevice(_ kind: StoreKind) async throws {
        try await withServer(kind) { url in
            let (a, b) = try await shared(url)
            #expect(try b.content() == a.content())
            #expect(try b.content().count == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func editsOfDifferentColumnsOfANoteBothSurvive(_ kind: StoreKind) async throws {
        try await withServer(kind) { url in
            let (a, b) = try await shared(url)
            try a.execute("UPDATE note SET title = 'Shopping' WHERE id = ?", [groceries])
            try b.execute("UPDATE note SET body = 'Milk' WHERE id = ?", [groceries])
            _ = try await a.sync(url)
            let second = try await b.sync(url)
            #expect(second.pushed.applied == 1 && second.pushed.conflicts == 0)
            _ = try await a.sync(url)
            #expect(try a.content() == b.content())
            #expect(try a.content().contains { $0.contains("Shopping") && $0.contains("Milk") })
            #expect(try a.conflicts().isEmpty && b.conflicts().isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEditOfTheSameNotebookByBothIsAConflictKept(_ kind: StoreKind) async throws {
        try await withServer(kind) { url in
            let (a, b) = try await shared(url)
            try a.execute("UPDATE notebook SET name = 'Office' WHERE id = ?", [work])
            try b.execute("UPDATE notebook SET name = 'Job' WHERE id = ?", [work])
            _ = try await a.sync(url)
            let second = try await b.sync(url)
            #expect(second.pushed.conflicts == 1)
            #expect(try b.content() == a.content(), "the server's name stands on both")
            let conflict = try #require(try b.conflicts().first)
            #expect(conflict.localValues == ["name": .string("Job")])
            #expect(conflict.serverValues?["name"] == .string("Office"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDeletedNotebookLeavesTheOtherDeviceWithItsNotes(_ kind: StoreKind) async throws {
        try await withServer(kind) { url in
            let (a, b) = try await shared(url)
            try a.execute("DELETE FROM notebook WHERE id = ?", [work])
            _ = try await a.sync(url)
            _ = try await b.sync(url)
            #expect(try b.content().isEmpty)
            let violations = try await b.dbQueue.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count }
            #expect(violations == 0)
        }
    }
}
