import Foundation

/// The hash of a synced row that a table's digest (``SyncTableDigest``)
/// adds up: the first 8 bytes, big-endian, of the MD5 of the UTF-8 text
/// `id|version|value|…|value`, the row's id in lowercase, then the values
/// of the table's columns but its primary key, in the declaration's order
/// (``SyncTable/valueColumns``):
///
/// - a `uuid` in lowercase, an `integer` in decimal, a `real` as Swift
///   writes a `Double` (`1.5`, `1e-05`), a `boolean` as `true` or
///   `false`, null (or a column the row does not have) as `\N`;
/// - a `text` as it is when it is the last value, so that a `|` in it
///   cannot make two rows one text; any other text with each `\` and `|`
///   after a `\`. (So the last column cannot tell null from the text
///   `\N`: a digest is a check, and those two rows weigh alike in it.)
///
/// A player, `uuid|version|score|name`, hashes as Players' digest always
/// did (``PlayersDigest``): clients and servers of every version compare
/// it. MD5 is written here (RFC 1321) with one buffer, so that the digest
/// of many rows costs little more than their bytes.
///
/// Not `Sendable`: one per task, for the rows it hashes.
///
/// ```swift
/// let hasher = SyncRowHasher()
/// var checksum: UInt64 = 0
/// for row in rows { checksum ^= hasher.hash(row.table, id: row.id, version: row.version, values: row.values) }
/// ```
public final class SyncRowHasher {
    /// The text of the row being hashed, then its MD5 padding.
    private var text: [UInt8] = []

    public init() {
        text.reserveCapacity(512)
    }

    /// The hash of a row of `table` with these values, by column name.
    public func hash(_ table: SyncTable, id: UUID, version: Int64, values: [String: SyncValue]) -> UInt64 {
        hash(idText: id.uuidString, version: version, values: table.valueColumns.map { values[$0.name] ?? .null })
    }

    /// The hash of a row whose id is `idText` (a UUID as a database stores
    /// it, in either case) and whose values are `values`, in the order of
    /// its table's ``SyncTable/valueColumns``.
    public func hash(idText: String, version: Int64, values: [SyncValue]) -> UInt64 {
        // A local array: appending to the property would check exclusive
        // access at each byte.
        var text: [UInt8] = []
        swap(&text, &self.text)
        defer { swap(&text, &self.text) }
        text.removeAll(keepingCapacity: true)
        Self.appendLowercased(idText, to: &text)
        text.append(UInt8(ascii: "|"))
        Self.appendDecimal(version, to: &text)
        for (index, value) in values.enumerated() {
            text.append(UInt8(ascii: "|"))
            switch value {
            case .null: text.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            case .uuid(let uuid): Self.appendLowercased(uuid.uuidString, to: &text)
            case .integer(let integer): Self.appendDecimal(integer, to: &text)
            case .real(let real): text.append(contentsOf: real.description.utf8)
            case .boolean(let boolean): text.append(contentsOf: (boolean ? "true" : "false").utf8)
            case .text(let string) where index == values.count - 1: text.append(contentsOf: string.utf8)
            case .text(let string):
                for byte in string.utf8 {
                    if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "|") { text.append(UInt8(ascii: "\\")) }
                    text.append(byte)
                }
            }
        }
        let (a, b) = Self.md5FirstHalf(&text)
        // The digest's first 8 bytes, read big-endian: MD5 writes its
        // words little-endian.
        return UInt64(a.byteSwapped) << 32 | UInt64(b.byteSwapped)
    }

    /// A UUID's text is ASCII: its lowercase is byte by byte.
    private static func appendLowercased(_ uuidText: String, to text: inout [UInt8]) {
        for byte in uuidText.utf8 {
            text.append((65...90).contains(byte) ? byte + 32 : byte)
        }
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
