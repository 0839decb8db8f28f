import CipherDB
import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// A device of an app's earlier version and one of its next version (which
/// adds a nullable column to a table merged by column and to one where the
/// server wins) sync through a server that serves the next version: the
/// old device neither sees nor erases the new columns, and both hold the
/// same rows in the columns they know.
@Suite struct SchemaVersionTests {
    let work = UUID().uuidString, groceries = UUID().uuidString

    @Test(arguments: StoreKind.allCases)
    func anOldAndANewDeviceConvergeWithoutLosingTheAddedColumns(_ kind: StoreKind) async throws {
        try await withSyncServer(kind, schema: .testNotesNextVersion) { url in
            let old = try NotesDevice(schema: .testNotes)
            let new = try NotesDevice(schema: .testNotesNextVersion)
            try old.execute("INSERT INTO notebook (id, name) VALUES (?, 'Work')", [work])
            try old.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Groceries')", [groceries, work])
            _ = try await old.sync(url)
            _ = try await new.sync(url)
            #expect(try new.values("note", groceries) == ["title": "Groceries", "body": nil, "color": nil])

            // The new version sets its columns; the old one, which has
            // pulled them, edits the other columns of both rows.
            try new.execute("UPDATE note SET color = 'red' WHERE id = ?", [groceries])
            try new.execute("UPDATE notebook SET icon = 'briefcase' WHERE id = ?", [work])
            _ = try await new.sync(url)
            _ = try await old.sync(url)
            try old.execute("UPDATE note SET title = 'Shopping', body = 'Milk' WHERE id = ?", [groceries])
            try old.execute("UPDATE notebook SET name = 'Office' WHERE id = ?", [work])
            let pushed = try await old.sync(url).pushed
            #expect(pushed.applied == 2 && pushed.conflicts == 0)
            _ = try await new.sync(url)
            #expect(try new.values("note", groceries) == ["title": "Shopping", "body": "Milk", "color": "red"])
            #expect(try new.values("notebook", work) == ["name": "Office", "icon": "briefcase"])

            // A row the old version adds has no value in the new column; a
            // row the new version adds reaches the old one without it, and
            // the old one's edit of it keeps it.
            let list = UUID().uuidString, plan = UUID().uuidString
            try old.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'List')", [list, work])
            try new.execute("INSERT INTO note (id, notebook, title, color) VALUES (?, ?, 'Plan', 'blue')", [plan, work])
            for device in [old, new, old] { _ = try await device.sync(url) }
            try old.execute("UPDATE note SET body = 'Soon' WHERE id = ?", [plan])
            for device in [old, new] { _ = try await device.sync(url) }
            #expect(try new.values("note", list) == ["title": "List", "body": nil, "color": nil])
            #expect(try new.values("note", plan) == ["title": "Plan", "body": "Soon", "color": "blue"])

            // Both hold the same rows in the columns the old one knows, and
            // neither has a conflict.
            #expect(try old.content() == new.content(columnsOf: .testNotes))
            #expect(try old.syncConflicts().isEmpty && new.syncConflicts().isEmpty)
        }
    }
}
