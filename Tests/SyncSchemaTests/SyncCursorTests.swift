import Foundation
import SyncSchema
import Testing

/// A cursor as a server writes it, `COUNTER.EPOCH.SERVER`, read back; any
/// other text refused.
@Suite struct SyncCursorTests {
    let server = UUID()

    @Test func aCursorReadsBackAsWritten() throws {
        let cursor = SyncCursor(counter: 42, epoch: "7f3a9c2e1b5d4f60", server: server)
        #expect(try SyncCursor(cursor.description) == cursor)
    }

    @Test func aServerIDInLowercaseIsNotOneThisServerWrote() {
        let text = "42.7f3a9c2e1b5d4f60.\(server.uuidString.lowercased())"
        #expect(throws: SyncMessageError.self) { try SyncCursor(text) }
    }

    @Test(arguments: ["", "42", "42.7f3a9c2e1b5d4f60", "x.7f3a9c2e1b5d4f60.5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F",
                      "42.7F3A9C2E1B5D4F60.5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F", "42.7f3a9c2e1b5d4f60.5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5",
                      "42.7f3a9c2e1b5d4f60. 5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5", "42.7f3a9c2e1b5d4f60.5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F.1"])
    func anythingElseIsRefused(_ text: String) {
        #expect(throws: SyncMessageError.self) { try SyncCursor(text) }
    }
}
