import Foundation

/// The answer to a push: one result per change of the batch, in the same
/// order (``SyncPushResult``).
///
/// ```json
/// {"protocolVersion": 1, "results": [
///   {"mutationID": "…", "status": "applied", "version": 42},
///   {"mutationID": "…", "status": "conflict", "version": 40, "row": {"id": "…", "values": {"title": "Theirs"}}}]}
/// ```
///
/// ```swift
/// let body = try SyncChangeResults(results: plan.results).jsonData()
/// let results = try SyncChangeResults.decode(response.body, answering: batch.changes, schema: schema).results
/// ```
public struct SyncChangeResults: Sendable, Equatable {
    public var results: [SyncPushResult]

    public init(results: [SyncPushResult]) {
        self.results = results
    }

    public func jsonData() throws -> Data {
        try SyncMessages.data(Wire(protocolVersion: SyncMessages.protocolVersion, results: results.map { result in
            Wire.Result(mutationID: result.mutationID, status: result.status == .applied ? "applied" : "conflict",
                        version: result.version, row: result.serverRow?.json)
        }))
    }

    /// Decodes the server's answer to `changes` and checks it by `schema`,
    /// the device's declaration: one result per change, in order, with its
    /// mutation id; a conflict's row has the change's id, and its values
    /// pass their columns (those the declaration lacks, of a server with a
    /// later one, are left out). Throws for the first bad element, by its
    /// JSON path.
    public static func decode(_ data: Data, answering changes: [SyncChange], schema: SyncSchema) throws(SyncMessageError) -> SyncChangeResults {
        let wire = try SyncMessages.decode(Wire.self, from: data, keys: [
            "$": ["protocolVersion", "results"],
            "$.results[]": ["mutationID", "status", "version", "row"],
            "$.results[].row": ["id", "values"],
        ], rowValues: ["$.results[].row.values"], version: \.protocolVersion)
        guard wire.results.count == changes.count else {
            throw SyncMessageError(path: "$.results", "\(wire.results.count) results for \(changes.count) changes")
        }
        var results: [SyncPushResult] = []
        for (index, (result, change)) in zip(wire.results, changes).enumerated() {
            let path = "$.results[\(index)]"
            guard result.mutationID == change.mutationID else {
                throw SyncMessageError(path: "\(path).mutationID", "not the mutation id of change \(index)")
            }
            let status: SyncPushResult.Status
            switch result.status {
            case "applied": status = .applied
            case "conflict": status = .conflict
            default: throw SyncMessageError(path: "\(path).status", "neither applied nor conflict")
            }
            if let version = result.version, version <= 0 {
                throw SyncMessageError(path: "\(path).version", "not positive")
            }
            var serverRow: SyncRow?
            if let row = result.row {
                guard status == .conflict else { throw SyncMessageError(path: "\(path).row", "only a conflict has one") }
                guard row.id.uppercased() == change.row.id.uuidString else {
                    throw SyncMessageError(path: "\(path).row.id", "not the id of change \(index)")
                }
                guard let table = schema.table(change.row.table) else {
                    throw SyncMessageError(path: "\(path).row", "a row of \(change.row.table), which this declaration lacks")
                }
                serverRow = try SyncMessages.serverRow(table, id: row.id, values: row.values, path: "\(path).row")
                guard result.version != nil else { throw SyncMessageError(path: "\(path).version", "missing beside a row") }
            }
            results.append(SyncPushResult(mutationID: result.mutationID, status: status, version: result.version, serverRow: serverRow))
        }
        return SyncChangeResults(results: results)
    }

    /// The answer as JSON has it, before a declaration reads its rows.
    struct Wire: Codable {
        struct Result: Codable {
            var mutationID: UUID
            var status: String
            var version: Int64?
            var row: SyncRowJSON?
        }

        var protocolVersion: Int
        var results: [Result]
    }
}
