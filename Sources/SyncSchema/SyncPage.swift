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

    /// The page as JSON (``SyncJSONText``: sorted keys, slashes not
    /// escaped), written byte by byte: a server writes a page for every
    /// request.
    public func jsonData() -> Data {
        var text = SyncJSONText()
        text.append("{\"complete\":")
        text.append(isComplete ? "true" : "false")
        text.append(",\"cursor\":")
        text.appendString(cursor)
        if let digests {
            text.append(",\"digests\":")
            text.appendArray(digests) { $0.appendDigest($1) }
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
        text.appendArray(rows) { $0.appendServerRow($1) }
        text.append(",\"tombstones\":")
        text.appendArray(tombstones) { text, tombstone in
            text.append("{\"id\":")
            text.appendUUID(tombstone.id)
            text.append(",\"table\":")
            text.appendString(tombstone.table)
            text.append(",\"version\":")
            text.appendInteger(tombstone.version)
            text.append("}")
        }
        text.append("}")
        return Data(text.bytes)
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
}
