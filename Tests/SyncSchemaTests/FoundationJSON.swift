import Foundation
@testable import SyncSchema

/// What Foundation's `JSONEncoder` (sorted keys, slashes not escaped) and
/// `JSONDecoder` make of the engine's JSON: the oracle that the engine's
/// writer (``SyncJSONText``) and reader (``StrictJSON/Reader``) are
/// compared with. The stores kept texts that `JSONEncoder` wrote until
/// 2026-12-06, and they must read back the same.
enum FoundationJSON {
    static func text<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// A page as Swift's coding writes it.
    struct Page: Encodable {
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

        var protocolVersion = SyncMessages.protocolVersion
        var kind: String
        var complete: Bool
        var cursor: String
        var next: String?
        var rows: [Row]
        var tombstones: [Tombstone]
        var epochs: [SyncEpoch]?
        var digests: [SyncTableDigest]?

        init(_ page: SyncPage) {
            kind = page.kind.rawValue
            complete = page.isComplete
            cursor = page.cursor
            next = page.next
            rows = page.rows.map { Row(table: $0.row.table, id: $0.row.id.uuidString, version: $0.version, values: $0.row.json.values) }
            tombstones = page.tombstones.map { Tombstone(table: $0.table, id: $0.id.uuidString, version: $0.version) }
            epochs = page.epochs
            digests = page.digests
        }
    }

    /// A push as Swift's coding writes it.
    struct Batch: Encodable {
        struct Change: Encodable {
            var mutationID: UUID
            var table: String
            var id: String
            var operation: String
            var baseVersion: Int64?
            var values: [String: SyncJSONScalar]?
        }

        var protocolVersion = SyncMessages.protocolVersion
        var server: UUID?
        var changes: [Change]

        init(_ batch: SyncChangeBatch) {
            server = batch.server
            changes = batch.changes.map { change in
                Change(mutationID: change.mutationID, table: change.row.table, id: change.row.id.uuidString,
                       operation: change.operation.rawValue, baseVersion: change.baseVersion,
                       values: change.operation == .upsert ? change.row.json.values : nil)
            }
        }
    }

    /// A push's answer as Swift's coding writes it.
    struct Results: Encodable {
        struct Result: Encodable {
            var mutationID: UUID
            var status: String
            var version: Int64?
            var row: SyncRowJSON?
        }

        var protocolVersion = SyncMessages.protocolVersion
        var results: [Result]

        init(_ answer: SyncChangeResults) {
            results = answer.results.map { result in
                Result(mutationID: result.mutationID, status: result.status == .applied ? "applied" : "conflict",
                       version: result.version, row: result.serverRow?.json)
            }
        }
    }
}
