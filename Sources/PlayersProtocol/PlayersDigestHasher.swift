import Foundation

/// Hashes players one after another (``PlayersDigest/hash(uuid:name:score:version:)``)
/// with one buffer and MD5 written here (RFC 1321), so that the digest of
/// many players costs little more than their bytes (libcrypto's MD5
/// allocates a context for each call): the migrations that first compute
/// a digest, and the checks that recompute one, hash every player.
///
/// Not `Sendable`: one per task, for the players it hashes.
///
/// ```swift
/// let hasher = PlayersDigestHasher()
/// var checksum: UInt64 = 0
/// for player in players { checksum ^= hasher.hash(uuidText: player.uuid, name: player.name, score: player.score, version: player.version) }
/// ```
public final class PlayersDigestHasher {
    /// The text of the player being hashed, then its MD5 padding.
    private var text: [UInt8] = []

    public init() {
        text.reserveCapacity(512)
    }

    /// The hash of one player; the uuid as a database stores it, in either
    /// case.
    public func hash(uuidText: String, name: String, score: Int, version: Int64) -> UInt64 {
        // A local array: appending to the property would check exclusive
        // access at each byte.
        var text: [UInt8] = []
        swap(&text, &self.text)
        defer { swap(&text, &self.text) }
        text.removeAll(keepingCapacity: true)
        // A uuid's text is ASCII: its lowercase is byte by byte.
        for byte in uuidText.utf8 {
            text.append((65...90).contains(byte) ? byte + 32 : byte)
        }
        text.append(UInt8(ascii: "|"))
        Self.appendDecimal(version, to: &text)
        text.append(UInt8(ascii: "|"))
        Self.appendDecimal(Int64(score), to: &text)
        text.append(UInt8(ascii: "|"))
        text.append(contentsOf: name.utf8)
        let (a, b) = Self.md5FirstHalf(&text)
        // The digest's first 8 bytes, read big-endian: MD5 writes its
        // words little-endian.
        return UInt64(a.byteSwapped) << 32 | UInt64(b.byteSwapped)
    }

    /// Appends `value` in decimal, as `String(value)` writes it.
    private static func appendDecimal(_ value: Int64, to text: inout [UInt8]) {
        if value < 0 { text.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = text.count
        repeat {
            text.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        text[start...].reverse()
    }

    // MARK: - MD5 (RFC 1321)

    /// The first two words of the MD5 of `message`, which it pads in place.
    private static func md5FirstHalf(_ message: inout [UInt8]) -> (UInt32, UInt32) {
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
        return (a0, b0)
    }

    /// The per-round shifts of MD5.
    private static let shifts: [UInt32] = [7, 12, 17, 22].repeated(4) + [5, 9, 14, 20].repeated(4)
        + [4, 11, 16, 23].repeated(4) + [6, 10, 15, 21].repeated(4)

    /// MD5's constants: the integer part of |sin(i + 1)| × 2^32, exact in
    /// double precision (the tests compare hashes with md5sum's and with
    /// PostgreSQL's md5()).
    private static let constants: [UInt32] = (0..<64).map { UInt32(abs(sin(Double($0 + 1))) * 4_294_967_296) }
}

private extension Array {
    func repeated(_ count: Int) -> [Element] {
        (0..<count).flatMap { _ in self }
    }
}
