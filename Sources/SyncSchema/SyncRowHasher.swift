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
/// did: clients and servers of every version compare it (``SyncMD5``).
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

    /// The hash of a row of `table` with these values, by column name:
    /// those of its digest's columns (``SyncTableDigest/columns(of:)``),
    /// for a row of an end-to-end table's server view the header of its
    /// sealed value (null when it has none of layout 1).
    public func hash(_ table: SyncTable, id: UUID, version: Int64, values: [String: SyncValue]) -> UInt64 {
        guard table.isEndToEnd else {
            return hash(idText: id.uuidString, version: version, values: table.valueColumns.map { values[$0.name] ?? .null })
        }
        var digested = table.clearValueColumns.map { values[$0.name] ?? .null }
        if case .text(let text)? = values[SyncTable.sealedColumn], let header = SyncSealedHeader(sealedText: text) {
            digested += [.integer(header.counter), .uuid(header.change)]
        } else {
            digested += [.null, .null]
        }
        return hash(idText: id.uuidString, version: version, values: digested)
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
        let (a, b, _, _) = SyncMD5.words(&text)
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
}
