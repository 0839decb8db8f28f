import Foundation
import SyncSchema
import Testing

/// The text of a UUID as the engine writes it without `sprintf`.
@Suite struct UUIDTextTests {
    @Test func theUppercasedTextIsTheUUIDStringForEveryByte() {
        for byte in UInt8.min...UInt8.max {
            let uuid = UUID(uuid: (byte, ~byte, byte &* 3, 0, 255, byte, 16, 1, byte &+ 7, 0x80, byte, 9, 0xA0, byte >> 1, byte << 1, 0xFF))
            #expect(uuid.uppercasedText == uuid.uuidString)
        }
        let random = UUID()
        #expect(random.uppercasedText == random.uuidString)
    }
}
