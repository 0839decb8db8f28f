import Foundation
import ServerTestSupport
import SyncSchema
import SyncServer
import Testing

/// The changes of a declaration that would lock out the devices of the
/// one served before (``SyncDeclarationChange/lockingOut(from:to:)``).
@Suite struct SyncDeclarationChangeTests {
    /// `testNotes` with its `note` table's columns changed by `change`.
    static func notes(_ change: ([SyncColumn]) -> [SyncColumn]) throws -> SyncSchema {
        try SyncSchema(tables: SyncSchema.testNotes.tables.map { table in
            guard table.name == "note" else { return table }
            return SyncTable(name: table.name, primaryKey: table.primaryKey, conflicts: table.conflicts, columns: change(table.columns))
        })
    }

    @Test func aNullableColumnOrATableAddedLocksNoOneOut() {
        #expect(SyncDeclarationChange.lockingOut(from: .testNotes, to: .testNotesNextVersion).isEmpty)
        #expect(SyncDeclarationChange.lockingOut(from: .testNotes, to: .testNotes).isEmpty)
    }

    /// The rows stored are sealed, or not, as the table was: a table
    /// that becomes end-to-end, or stops being, is a new table.
    @Test func aTableMadeEndToEndOrNoLongerIsNamed() {
        #expect(SyncDeclarationChange.lockingOut(from: .testUsers, to: .testUsersWithSealedDiaries)
                == [.endToEndChanged(table: "diary", isEndToEnd: true)])
        #expect(SyncDeclarationChange.lockingOut(from: .testUsersWithSealedDiaries, to: .testUsers)
                == [.endToEndChanged(table: "diary", isEndToEnd: false)])
        #expect(SyncDeclarationChange.lockingOut(from: .testUsersWithSealedDiaries, to: SyncSchema.testUsersWithSealedDiaries.serverView)
                .isEmpty)
    }

    @Test func aRequiredColumnAddedIsNamed() throws {
        let later = try Self.notes { $0 + [SyncColumn(name: "due", type: .integer, isRequired: true)] }
        #expect(SyncDeclarationChange.lockingOut(from: .testNotes, to: later) == [.requiredColumnAdded(table: "note", column: "due")])
    }

    @Test func aColumnRemovedRetypedOrMadeRequiredIsNamed() throws {
        let later = try Self.notes { columns in
            columns.compactMap { column in
                switch column.name {
                case "title": SyncColumn(name: "title", type: .integer, isRequired: true)
                case "body": SyncColumn(name: "body", type: .text, isRequired: true, maximumLength: 1_000)
                case "notebook": nil
                default: column
                }
            }
        }
        #expect(SyncDeclarationChange.lockingOut(from: .testNotes, to: later) == [
            .columnRemoved(table: "note", column: "notebook"),
            .columnRetyped(table: "note", column: "title", from: .text, to: .integer),
            .columnMadeRequired(table: "note", column: "body"),
        ])
    }

    /// On both stores: the declaration kept is the one served last, and one
    /// that would lock out its devices is refused, the database unchanged.
    @Test(arguments: StoreKind.allCases)
    func aStoreRefusesADeclarationThatLocksOutTheDevicesOfTheOneItServed(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { _, sandbox in
            let requiredDue = try Self.notes { $0 + [SyncColumn(name: "due", type: .integer, isRequired: true)] }
            await #expect(throws: SyncStoreError.declarationLocksOut([.requiredColumnAdded(table: "note", column: "due")])) {
                _ = try await TestSyncStore.open(sandbox, schema: requiredDue)
            }
            let later = try await TestSyncStore.open(sandbox, schema: .testNotesNextVersion)
            try await later.close()
            // The later one is served now: going back would remove its columns.
            let error = await #expect(throws: SyncStoreError.self) { _ = try await TestSyncStore.open(sandbox, schema: .testNotes) }
            #expect(error?.description.contains("it removes the column note.color, which those devices still send") == true,
                    "\(String(describing: error))")
        }
    }
}
