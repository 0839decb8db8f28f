import Foundation
import SyncSchema
import SyncSealing
import Testing

/// A sealed value opens only for the row, partition, key and header it was
/// sealed with: anything a server could change or move makes it refused.
@Suite struct SealedValueTests {
    let row = SealedRow(table: "note", id: UUID(), partition: "group:notebook:7C0E3B52-5E4B-4D0F-9C36-2B0F0C7C1A11")
    let change = UUID()

    func key(epoch: UInt32 = 1) throws -> PartitionKey {
        try PartitionKey.random(partition: row.partition, epoch: epoch)
    }

    func sealed(_ text: String, key: PartitionKey, counter: Int64 = 8) throws -> SealedValue {
        try SealedValue.seal(Array(text.utf8), for: row, key: key, declarationFormat: 3, sealedCounter: counter, change: change)
    }

    @Test func aValueOpensForItsRowUnderItsKey() throws {
        let key = try key()
        let value = try sealed(#"{"title":"Plan","body":"Canary 41"}"#, key: key)
        let read = try SealedValue(text: value.text)
        #expect(read == value)
        #expect(try read.open(for: row, key: key) == Array(#"{"title":"Plan","body":"Canary 41"}"#.utf8))
        #expect((read.declarationFormat, read.epoch, read.sealedCounter, read.change) == (3, 1, 8, change))
    }

    /// What a server reads of a sealed value for its digests
    /// (SyncSchema's `SyncSealedHeader`) is the value's own counter and
    /// change; a text of another layout has none.
    @Test func theHeaderAServerReadsIsTheValues() throws {
        let value = try sealed("Canary", key: try key(epoch: 300), counter: 1 << 40 | 7)
        #expect(SyncSealedHeader(sealedText: value.text) == SyncSealedHeader(counter: 1 << 40 | 7, change: change))
        var bytes = value.bytes
        bytes[0] = 2
        #expect(SyncSealedHeader(sealedText: Data(bytes).base64EncodedString()) == nil)
        #expect(SyncSealedHeader(sealedText: "AQ") == nil)
    }

    @Test func theTextHoldsNoPlaintext() throws {
        let value = try sealed("Canary 0123456789", key: try key())
        #expect(!value.text.contains("Canary"))
        #expect(!String(decoding: value.bytes, as: UTF8.self).contains("Canary"))
    }

    @Test func aValueMovedToAnotherRowTableOrPartitionDoesNotOpen() throws {
        let key = try key()
        let value = try sealed("Plan", key: key)
        #expect(throws: SealingError.notAuthentic) {
            try value.open(for: SealedRow(table: row.table, id: UUID(), partition: row.partition), key: key)
        }
        #expect(throws: SealingError.notAuthentic) {
            try value.open(for: SealedRow(table: "notebook", id: row.id, partition: row.partition), key: key)
        }
        let other = SealedRow(table: row.table, id: row.id, partition: "user:mallory")
        #expect(throws: SealingError.notAuthentic) {
            try value.open(for: other, key: try PartitionKey(partition: other.partition, epoch: 1, bytes: key.bytes))
        }
    }

    @Test func aValueDoesNotOpenUnderAnotherKeyOrEpoch() throws {
        let key = try key()
        let value = try sealed("Plan", key: key)
        #expect(throws: SealingError.notAuthentic) { try value.open(for: row, key: try self.key()) }
        let sameBytesLaterEpoch = try PartitionKey(partition: row.partition, epoch: 2, bytes: key.bytes)
        #expect(throws: SealingError.notAuthentic) { try value.open(for: row, key: sameBytesLaterEpoch) }
    }

    /// Every bit of the stored bytes, header included, is covered: the
    /// counter, the change, the epoch and the format cannot be rewritten.
    @Test func flippingAnyBitMakesItRefused() throws {
        let key = try key()
        let bytes = try sealed("A note of some length", key: key).bytes
        for index in bytes.indices {
            for bit in [0, 7] {
                var flipped = bytes
                flipped[index] ^= UInt8(1 << bit)
                let refused: Bool
                do {
                    _ = try SealedValue(bytes: flipped).open(for: row, key: key)
                    refused = false
                } catch {
                    refused = true
                }
                #expect(refused, "byte \(index), bit \(bit)")
            }
        }
    }

    @Test func aShortOrForeignValueIsMalformed() throws {
        #expect(throws: SealingError.malformedSealedValue("it is empty")) { try SealedValue(bytes: []) }
        #expect(throws: SealingError.malformedSealedValue("its layout 2 is not 1")) { try SealedValue(bytes: [2] + [UInt8](repeating: 0, count: 200)) }
        #expect(throws: SealingError.malformedSealedValue("it is shorter than a sealed value")) { try SealedValue(bytes: [1, 3, 0, 0]) }
        #expect(throws: SealingError.malformedSealedValue("it is not base64")) { try SealedValue(text: "{\"title\":\"Plan\"}") }
    }

    /// Lengths leak only as size classes: values of nearby lengths seal to
    /// the same length, and a class is at most 12% above its lengths.
    @Test func lengthsSealToSizeClasses() throws {
        let key = try key()
        #expect(try sealed("", key: key).bytes.count == sealed(String(repeating: "x", count: 63), key: key).bytes.count)
        #expect(try sealed(String(repeating: "x", count: 290), key: key).bytes.count
                == sealed(String(repeating: "x", count: 300), key: key).bytes.count)
        for length in [0, 1, 63, 64, 100, 1_000, 4_097, 100_000, 1 << 20] {
            let padded = SealedValue.paddedLength(of: length)
            #expect(padded > length && padded >= 64, "\(length)")
            #expect(length < 64 || Double(padded) <= Double(length + 1) * 1.12, "\(length) → \(padded)")
        }
        #expect(Set((1_000...1_100).map(SealedValue.paddedLength(of:))).count <= 4)
    }

    /// The server's bound on a sealed value (SyncSchema's, which does not
    /// link libsodium) is the text of the longest one.
    @Test func theLongestValueIsAsLongAsTheServerAllows() throws {
        let longest = [UInt8](repeating: 0x61, count: SealedValue.maximumPlaintextLength)
        let value = try SealedValue.seal(longest, for: row, key: try key(), declarationFormat: 3, sealedCounter: 1, change: change)
        #expect(value.text.utf8.count == SyncTable.maximumSealedLength)
    }

    @Test func aValueLongerThanTheLimitIsRefused() throws {
        let long = [UInt8](repeating: 0x61, count: SealedValue.maximumPlaintextLength + 1)
        #expect(throws: SealingError.tooLong(long.count)) {
            try SealedValue.seal(long, for: row, key: try key(), declarationFormat: 3, sealedCounter: 1, change: change)
        }
    }
}
