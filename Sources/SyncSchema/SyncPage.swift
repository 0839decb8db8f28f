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
    /// its column, every version is positive. Throws for the first bad
    /// element, by its JSON path.
    public static func decode(_ data: Data, schema: SyncSchema) throws(SyncMessageError) -> SyncPage {
        let wire = try SyncMessages.decode(DeclaredWire.self, from: data, keys: [
            "$": ["protocolVersion", "kind", "complete", "cursor", "next", "rows", "tombstones", "epochs", "digests"],
            "$.epochs[]": ["epoch", "start"],
            "$.digests[]": ["table", "columns", "rows", "checksum"],
            "$.rows[]": ["table", "id", "version", "values"],
            "$.tombstones[]": ["table", "id", "version"],
        ], rowValues: ["$.rows[].values"], userInfo: [DeclaredWire.declaration: schema], version: \.protocolVersion)
        guard let kind = Kind(rawValue: wire.kind) else { throw SyncMessageError(path: "$.kind", "neither snapshot nor delta") }
        // A row listed twice (two states, or a state and a tombstone) would
        // leave whichever comes last: the page is refused instead.
        var listed = Set<SyncRowKey>()
        var rows: [SyncServerRow] = []
        rows.reserveCapacity(wire.rows.count)
        for (index, row) in wire.rows.enumerated() {
            guard let server = row else { continue }
            guard listed.insert(SyncRowKey(table: server.row.table, id: server.row.id)).inserted else {
                throw SyncMessageError(path: "$.rows[\(index)].id", "\(server.row.id.uuidString) appears twice")
            }
            rows.append(server)
        }
        var tombstones: [SyncTombstone] = []
        for (index, tombstone) in wire.tombstones.enumerated() {
            let path = "$.tombstones[\(index)]"
            guard tombstone.version > 0 else { throw SyncMessageError(path: "\(path).version", "not positive") }
            guard let id = UUID(parsing: tombstone.id) else { throw SyncMessageError(path: "\(path).id", "not a UUID") }
            guard schema.table(tombstone.table) != nil else { continue }
            guard listed.insert(SyncRowKey(table: tombstone.table, id: id)).inserted else {
                throw SyncMessageError(path: "\(path).id", "\(id.uuidString) appears twice")
            }
            tombstones.append(SyncTombstone(table: tombstone.table, id: id, version: tombstone.version))
        }
        if !wire.complete, wire.next == nil { throw SyncMessageError(path: "$.next", "missing on a page that is not the last") }
        return SyncPage(kind: kind, isComplete: wire.complete, cursor: wire.cursor, next: wire.next, rows: rows, tombstones: tombstones,
                        epochs: wire.epochs, digests: wire.digests?.filter { schema.table($0.table) != nil })
    }

    /// The page as `JSONEncoder` writes it.
    struct Wire: Encodable {
        struct Row: Codable {
            var table: String
            var id: String
            var version: Int64
            var values: [String: SyncJSONScalar]
        }

        struct Tombstone: Codable {
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

extension SyncPage {
    /// A page as JSON has it, each row read by the declaration in the
    /// decoder's `userInfo` (``declaration``) as it is decoded: a page's
    /// rows are never held twice, as JSON values and as checked rows.
    /// A row's version is positive and its values pass their columns
    /// (``SyncTable/row(fromServer:)``); a row of a table the declaration
    /// lacks is nil.
    struct DeclaredWire: Decodable {
        static let declaration = CodingUserInfoKey(rawValue: "SyncPage.declaration")!

        var protocolVersion: Int
        var kind: String
        var complete: Bool
        var cursor: String
        var next: String?
        var rows: [SyncServerRow?] = []
        var tombstones: [Wire.Tombstone]
        var epochs: [SyncEpoch]?
        var digests: [SyncTableDigest]?

        private enum CodingKeys: String, CodingKey {
            case protocolVersion, kind, complete, cursor, next, rows, tombstones, epochs, digests
        }

        init(from decoder: any Decoder) throws {
            guard let schema = decoder.userInfo[Self.declaration] as? SyncSchema else {
                preconditionFailure("a page is decoded with the declaration that reads its rows")
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Another version's rows are not read by this declaration.
            protocolVersion = try container.decode(Int.self, forKey: .protocolVersion)
            guard protocolVersion == SyncMessages.protocolVersion else {
                throw SyncMessageError.UnsupportedProtocolVersion(version: protocolVersion)
            }
            kind = try container.decode(String.self, forKey: .kind)
            complete = try container.decode(Bool.self, forKey: .complete)
            cursor = try container.decode(String.self, forKey: .cursor)
            next = try container.decodeIfPresent(String.self, forKey: .next)
            var list = try container.nestedUnkeyedContainer(forKey: .rows)
            rows.reserveCapacity(list.count ?? 0)
            while !list.isAtEnd {
                let index = list.currentIndex
                let row = try list.decode(Wire.Row.self)
                guard row.version > 0 else { throw SyncMessageError(path: "$.rows[\(index)].version", "not positive") }
                guard let table = schema.table(row.table) else {
                    rows.append(nil)
                    continue
                }
                do {
                    rows.append(SyncServerRow(row: try table.row(fromServer: SyncRowJSON(id: row.id, values: row.values)), version: row.version))
                } catch {
                    throw SyncMessages.messageError(error, table, path: "$.rows[\(index)]")
                }
            }
            tombstones = try container.decode([Wire.Tombstone].self, forKey: .tombstones)
            epochs = try container.decodeIfPresent([SyncEpoch].self, forKey: .epochs)
            digests = try container.decodeIfPresent([SyncTableDigest].self, forKey: .digests)
        }
    }
}

/// A row of a table, as a page may list it once.
private struct SyncRowKey: Hashable {
    var table: String
    var id: UUID
}
