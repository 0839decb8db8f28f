import Foundation

/// A page of a pull: the server's rows and tombstones of every table it
/// serves, a snapshot's (live rows in key order) or a delta's (changes
/// in version order), with the cursor to ask for the next one.
///
/// ```json
/// {"protocolVersion": 1, "kind": "delta", "complete": true, "cursor": "…",
///  "rows": [{"table": "note", "id": "…", "version": 42, "values": {"notebook": "…", "title": "Groceries", "body": null}}],
///  "tombstones": [{"table": "notebook", "id": "…", "version": 43}],
///  "digests": [{"table": "note", "columns": ["notebook", "title", "body"], "rows": 12, "checksum": "0123456789abcdef"}]}
/// ```
///
/// ```swift
/// let page = try SyncPage.decode(response.body, schema: schema)
/// try dbQueue.write { db in try db.stageSyncPage(rows: page.rows, tombstones: page.tombstones, schema: schema) }
/// ```
public struct SyncPage: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Every live row: what the device does not find in a whole
        /// snapshot was deleted.
        case snapshot
        /// The changes after the cursor the device sent.
        case delta
    }

    public var kind: Kind
    /// Whether this is the last page: the cursor then names the state the
    /// pages add up to.
    public var isComplete: Bool
    /// The position of the server's data that the pages add up to
    /// (``SyncCursor``), which a device sends back for the changes after it.
    public var cursor: String
    /// The next page, relative to the endpoint, when this is not the last.
    public var next: String?
    public var rows: [SyncServerRow]
    public var tombstones: [SyncTombstone]
    /// A snapshot's: the epochs of the server's history, oldest first
    /// (``SyncEpoch``), so that a device whose cursor is of an earlier one
    /// knows what it shares with this history.
    public var epochs: [SyncEpoch]?
    /// The last page's: the digest of each table's live rows at the
    /// cursor (``SyncTableDigest``), which a device compares with its own.
    public var digests: [SyncTableDigest]?

    public init(kind: Kind, isComplete: Bool, cursor: String, next: String? = nil, rows: [SyncServerRow], tombstones: [SyncTombstone],
                epochs: [SyncEpoch]? = nil, digests: [SyncTableDigest]? = nil) {
        self.kind = kind
        self.isComplete = isComplete
        self.cursor = cursor
        self.next = next
        self.rows = rows
        self.tombstones = tombstones
        self.epochs = epochs
        self.digests = digests
    }

    /// The page as JSON: sorted keys, slashes not escaped. Written without
    /// `JSONEncoder` (a server writes a page for every request) unless a
    /// row holds a real, whose text is `JSONEncoder`'s own: the same bytes
    /// either way (`SyncPageTextTests`).
    public func jsonData() throws -> Data {
        let hasReal = rows.contains { row in row.row.values.values.contains { if case .real = $0 { true } else { false } } }
        return hasReal ? try encodedByJSONEncoder() : Data(jsonBytes())
    }

    /// The page as `JSONEncoder` writes it.
    func encodedByJSONEncoder() throws -> Data {
        try SyncMessages.data(Wire(
            protocolVersion: SyncMessages.protocolVersion, kind: kind.rawValue, complete: isComplete, cursor: cursor, next: next,
            rows: rows.map { Wire.Row(table: $0.row.table, id: $0.row.id.uuidString, version: $0.version, values: $0.row.json.values) },
            tombstones: tombstones.map { Wire.Tombstone(table: $0.table, id: $0.id.uuidString, version: $0.version) },
            epochs: epochs, digests: digests))
    }

    /// The page as ``encodedByJSONEncoder()`` writes it when no row holds
    /// a real, byte by byte.
    func jsonBytes() -> [UInt8] {
        var text = SyncJSONText()
        text.append("{\"complete\":")
        text.append(isComplete ? "true" : "false")
        text.append(",\"cursor\":")
        text.appendString(cursor)
        if let digests {
            text.append(",\"digests\":")
            text.appendArray(digests) { text, digest in
                text.append("{\"checksum\":")
                text.appendString(digest.hexadecimalChecksum)
                text.append(",\"columns\":")
                text.appendArray(digest.columns) { text, column in text.appendString(column) }
                text.append(",\"rows\":")
                text.appendInteger(Int64(digest.rows))
                text.append(",\"table\":")
                text.appendString(digest.table)
                text.append("}")
            }
        }
        if let epochs {
            text.append(",\"epochs\":")
            text.appendEpochs(epochs)
        }
        text.append(",\"kind\":")
        text.appendString(kind.rawValue)
        if let next {
            text.append(",\"next\":")
            text.appendString(next)
        }
        text.append(",\"protocolVersion\":")
        text.appendInteger(Int64(SyncMessages.protocolVersion))
        text.append(",\"rows\":")
        text.appendArray(rows) { text, row in
            text.append("{\"id\":")
            text.appendString(row.row.id.uuidString)
            text.append(",\"table\":")
            text.appendString(row.row.table)
            text.append(",\"values\":{")
            for (index, (column, value)) in row.row.values.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { text.append(",") }
                text.appendString(column)
                text.append(":")
                switch value {
                case .null: text.append("null")
                case .uuid(let uuid): text.appendString(uuid.uuidString)
                case .text(let string): text.appendString(string)
                case .integer(let integer): text.appendInteger(integer)
                case .boolean(let boolean): text.append(boolean ? "true" : "false")
                case .real: preconditionFailure("a page with a real is written by JSONEncoder")
                }
            }
            text.append("},\"version\":")
            text.appendInteger(row.version)
            text.append("}")
        }
        text.append(",\"tombstones\":")
        text.appendArray(tombstones) { text, tombstone in
            text.append("{\"id\":")
            text.appendString(tombstone.id.uuidString)
            text.append(",\"table\":")
            text.appendString(tombstone.table)
            text.append(",\"version\":")
            text.appendInteger(tombstone.version)
            text.append("}")
        }
        text.append("}")
        return text.bytes
    }

    /// Decodes a page and checks it by `schema`, the device's declaration,
    /// which may be older than the server's: the rows and tombstones of a
    /// table it lacks, and the columns it lacks, are left out (this device
    /// cannot store them; the server keeps them); every other value passes
    /// its column, every version is positive, no row is listed twice. The
    /// protocol version is checked before anything else is read. Throws
    /// for the first bad element, by its JSON path.
    public static func decode(_ data: Data, schema: SyncSchema) throws(SyncMessageError) -> SyncPage {
        do {
            return try StrictJSON.Reader.reading(data) { json throws(StrictJSON.Violation) in
                var reading = Reading(json, schema: schema)
                return try reading.page()
            }
        } catch {
            throw SyncMessageError(error)
        }
    }

    /// The page as `JSONEncoder` writes it.
    struct Wire: Encodable {
        struct Row: Encodable {
            var table: String
            var id: String
            var version: Int64
            var values: [String: SyncJSONScalar]
        }

        struct Tombstone: Encodable {
            var table: String
            var id: String
            var version: Int64
        }

        var protocolVersion: Int
        var kind: String
        var complete: Bool
        var cursor: String
        var next: String?
        var rows: [Row]
        var tombstones: [Tombstone]
        var epochs: [SyncEpoch]?
        var digests: [SyncTableDigest]?
    }
}
