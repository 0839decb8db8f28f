import Foundation

/// MD5 (RFC 1321), written here with one buffer so that a digest of many
/// rows costs little more than their bytes: the hash of a synced row
/// (``SyncRowHasher``, compared with PostgreSQL's `md5()` and with clients
/// of every version) and the fingerprint of a pushed change
/// (``SyncChange/fingerprint``). Neither is a secret or a signature: a
/// digest is a check of convergence, and a fingerprint tells a retry from
/// another change under the same random mutation id.
///
/// ```swift
/// var bytes = Array("abc".utf8)
/// let hex = SyncMD5.hexadecimal(&bytes)   // "900150983cd24fb0d6963f7d28e17f72"
/// ```
enum SyncMD5 {
    /// The MD5 of `message`, which it pads in place, as its four words.
    static func words(_ message: inout [UInt8]) -> (UInt32, UInt32, UInt32, UInt32) {
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var (a0, b0, c0, d0): (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        message.withUnsafeBytes { bytes in
            for block in stride(from: 0, to: bytes.count, by: 64) {
                var (a, b, c, d) = (a0, b0, c0, d0)
                for round in 0..<64 {
                    var f: UInt32
                    let g: Int
                    switch round {
                    case 0..<16:
                        f = (b & c) | (~b & d)
                        g = round
                    case 16..<32:
                        f = (d & b) | (~d & c)
                        g = (5 * round + 1) % 16
                    case 32..<48:
                        f = b ^ c ^ d
                        g = (3 * round + 5) % 16
                    default:
                        f = c ^ (b | ~d)
                        g = (7 * round) % 16
                    }
                    let word = bytes.loadUnaligned(fromByteOffset: block + 4 * g, as: UInt32.self).littleEndian
                    f = f &+ a &+ constants[round] &+ word
                    a = d
                    d = c
                    c = b
                    b = b &+ (f << shifts[round] | f >> (32 - shifts[round]))
                }
                a0 = a0 &+ a
                b0 = b0 &+ b
                c0 = c0 &+ c
                d0 = d0 &+ d
            }
        }
        return (a0, b0, c0, d0)
    }

    /// The per-round shifts of MD5.
    private static let shifts: [UInt32] = [7, 12, 17, 22].repeated(4) + [5, 9, 14, 20].repeated(4)
        + [4, 11, 16, 23].repeated(4) + [6, 10, 15, 21].repeated(4)

    /// MD5's constants: the integer part of |sin(i + 1)| × 2^32, exact in
    /// double precision (the tests compare hashes with md5sum's and with
    /// PostgreSQL's md5()).
    private static let constants: [UInt32] = (0..<64).map { UInt32(abs(sin(Double($0 + 1))) * 4_294_967_296) }

    /// The MD5 of `message` (padded in place) in lowercase hexadecimal, as
    /// `md5sum` prints it.
    static func hexadecimal(_ message: inout [UInt8]) -> String {
        let (a, b, c, d) = words(&message)
        // MD5 writes its words little-endian.
        return [a, b, c, d].map { word in
            let text = String(word.byteSwapped, radix: 16)
            return String(repeating: "0", count: 8 - text.count) + text
        }.joined()
    }
}

private extension Array {
    func repeated(_ count: Int) -> [Element] {
        (0..<count).flatMap { _ in self }
    }
}
