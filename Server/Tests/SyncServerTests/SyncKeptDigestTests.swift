import Foundation
import SyncSchema
import SyncServer
import Testing

/// The one rule by which a batch's changes of digests reach the digests
/// a store keeps (``SyncKeptDigest/applying(_:to:)``).
@Suite struct SyncKeptDigestTests {
    let note = SyncTableDigest(table: "note", columns: ["notebook", "title", "body"], rows: 2, checksum: 0xF0F0)

    @Test func aKeptDigestOfTheSameColumnsTakesTheChange() {
        let kept = SyncKeptDigest(table: "note", columns: note.storedColumns, rows: 5, checksum: 0x0FF0)
        #expect(SyncKeptDigest.applying([note], to: [kept])
            == [SyncKeptDigest(table: "note", columns: note.storedColumns, rows: 7, checksum: 0xFF00)])
    }

    @Test func aChangeThatTakesRowsOutLowersTheCount() {
        var change = note
        change.rows = -3
        let kept = SyncKeptDigest(table: "note", columns: note.storedColumns, rows: 5, checksum: 0)
        #expect(SyncKeptDigest.applying([change], to: [kept]).map(\.rows) == [2])
    }

    @Test func aKeptDigestOfOtherColumnsIsMarkedNotTrueAndKeepsItsCount() {
        let kept = SyncKeptDigest(table: "note", columns: #"["notebook","title"]"#, rows: 5, checksum: 0x0FF0)
        #expect(SyncKeptDigest.applying([note], to: [kept]) == [SyncKeptDigest(table: "note", columns: nil, rows: 5, checksum: 0x0FF0)])
    }

    @Test func aDigestMarkedNotTrueStaysSo() {
        let kept = SyncKeptDigest(table: "note", columns: nil, rows: 5, checksum: 1)
        #expect(SyncKeptDigest.applying([note], to: [kept]) == [kept])
    }

    @Test func aTableWithoutAKeptDigestGetsNone() {
        let other = SyncKeptDigest(table: "notebook", columns: #"["name"]"#, rows: 1, checksum: 1)
        #expect(SyncKeptDigest.applying([note], to: [other]).isEmpty)
    }
}
