/// The digest of a table's live rows: their number and the XOR of their
/// hashes (``SyncRowHasher``), which a server keeps with every write and
/// sends on the last page of a pull, so that a device can tell whether
/// its synced rows are the server's without reading them again.
///
/// A hash covers the table's value columns of one declaration
/// (`columns`): a device compares only a digest of the columns it
/// declares itself (``covers(_:)``); a device of an earlier declaration
/// than the server's cannot, and says so rather than finding a false
/// difference.
///
/// ```swift
/// var digest = SyncTableDigest(table: note)
/// digest.toggle(hasher.hash(note, id: id, version: 7, values: values))   // a row added
/// digest.toggle(hasher.hash(note, id: id, version: 7, values: values), rows: -1)   // and taken out
/// print(digest)   // note: 0 rows, checksum 0000000000000000
/// ```
public struct SyncTableDigest: Sendable, Equatable, Codable, CustomStringConvertible {
    public var table: String
    /// The columns whose values the hashes cover, in order: the table's
    /// ``SyncTable/valueColumns`` in the declaration that made it.
    public var columns: [String]
    /// The number of live rows.
    public var rows: Int
    public var checksum: UInt64

    public init(table: String, columns: [String], rows: Int, checksum: UInt64) {
        self.table = table
        self.columns = columns
        self.rows = rows
        self.checksum = checksum
    }

    /// The digest of no row of `table`.
    public init(table: SyncTable) {
        self.init(table: table.name, columns: Self.columns(of: table), rows: 0, checksum: 0)
    }

    /// The columns a digest of `table` covers, in order: its value
    /// columns; for an end-to-end table (its declaration or its server
    /// view alike), its clear ones, then the sealed counter and writing
    /// change of its sealed value (``SyncSealedHeader``), which both the
    /// server and a device that opened the value know.
    public static func columns(of table: SyncTable) -> [String] {
        guard table.isEndToEnd else { return table.valueColumns.map(\.name) }
        return table.clearValueColumns.map(\.name) + sealedHeaderColumns
    }

    /// The names an end-to-end table's digest gives the counter and the
    /// change of its sealed values: reserved, as every `sync_` name.
    public static let sealedHeaderColumns = ["sync_sealed_counter", "sync_sealed_change"]

    /// Whether this digest covers the rows of `table` as declared there:
    /// the same table, the same columns in the same order.
    public func covers(_ table: SyncTable) -> Bool {
        self.table == table.name && columns == Self.columns(of: table)
    }

    /// Adds a row's hash, or takes it out (the same hash again, `rows: -1`).
    public mutating func toggle(_ hash: UInt64, rows: Int = 1) {
        self.rows += rows
        checksum ^= hash
    }

    /// `{"table": "note", "columns": ["notebook", "title", "body"], "rows": 12, "checksum": "0123456789abcdef"}`:
    /// the checksum as 16 lowercase hexadecimal digits, which JSON's
    /// numbers cannot hold exactly.
    enum CodingKeys: String, CodingKey {
        case table, columns, rows, checksum
    }

    /// A digest as a message writes it: its count of rows is not negative,
    /// its checksum is 16 lowercase hexadecimal digits; otherwise the
    /// field that is wrong and why.
    static func read(table: String, columns: [String], rows: Int, checksum text: String) -> Result<SyncTableDigest, Refusal> {
        guard let checksum = SyncHexadecimal.value(text) else { return .failure(Refusal(field: .checksum, reason: "not 16 lowercase hexadecimal digits")) }
        guard rows >= 0 else { return .failure(Refusal(field: .rows, reason: "negative")) }
        return .success(SyncTableDigest(table: table, columns: columns, rows: rows, checksum: checksum))
    }

    /// Why ``read(table:columns:rows:checksum:)`` refuses a digest.
    struct Refusal: Error {
        var field: CodingKeys
        var reason: String
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let read = Self.read(
            table: try container.decode(String.self, forKey: .table), columns: try container.decode([String].self, forKey: .columns),
            rows: try container.decode(Int.self, forKey: .rows), checksum: try container.decode(String.self, forKey: .checksum))
        switch read {
        case .success(let digest): self = digest
        case .failure(let refusal): throw DecodingError.dataCorruptedError(forKey: refusal.field, in: container, debugDescription: refusal.reason)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(table, forKey: .table)
        try container.encode(columns, forKey: .columns)
        try container.encode(rows, forKey: .rows)
        try container.encode(hexadecimalChecksum, forKey: .checksum)
    }

    /// The checksum as 16 lowercase hexadecimal digits.
    public var hexadecimalChecksum: String {
        SyncHexadecimal.text(checksum)
    }

    /// `player: 6 rows, checksum 1f0c9b2e77a34d85`: what a report or an
    /// error says of a digest.
    public var description: String {
        "\(table): \(rows) row\(rows == 1 ? "" : "s"), checksum \(hexadecimalChecksum)"
    }
}

extension StrictJSON.Reader {
    /// A table's digest as a page and a device's store write it
    /// (``SyncJSONText/appendDigest(_:)``): each key once, and no other.
    mutating func digest() throws(StrictJSON.Violation) -> SyncTableDigest {
        var object = try beginObject()
        var table: String?, columns: [String]?, rows: Int64?, checksum: String?
        while let key = try nextKey(&object) {
            switch key {
            case "table": table = try string()
            case "columns":
                var names: [String] = []
                var list = try beginArray()
                while try nextElement(&list) != nil { names.append(try string()) }
                columns = names
            case "rows": rows = try integer()
            case "checksum": checksum = try string()
            default: throw violation("unknown key")
            }
        }
        guard let table else { throw missing("table") }
        guard let columns else { throw missing("columns") }
        guard let rows else { throw missing("rows") }
        guard let checksum else { throw missing("checksum") }
        switch SyncTableDigest.read(table: table, columns: columns, rows: Int(rows), checksum: checksum) {
        case .success(let digest): return digest
        case .failure(let refusal): throw StrictJSON.Violation(path: "\(pathText).\(refusal.field.stringValue)", refusal.reason)
        }
    }
}
