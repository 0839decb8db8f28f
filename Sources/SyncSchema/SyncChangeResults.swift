import Foundation

/// The answer to a push: one result per change of the batch, in the same
/// order (``SyncPushResult``).
///
/// ```json
/// {"protocolVersion": 1, "results": [
///   {"mutationID": "…", "status": "applied", "version": 42},
///   {"mutationID": "…", "status": "conflict", "version": 40, "row": {"id": "…", "values": {"title": "Theirs"}}},
///   {"mutationID": "…", "status": "refused", "reason": "writing the table … needs the role editor…"}]}
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

    /// The answer as JSON (``SyncJSONText``).
    public func jsonData() -> Data {
        var text = SyncJSONText()
        text.append("{\"protocolVersion\":")
        text.appendInteger(Int64(SyncMessages.protocolVersion))
        text.append(",\"results\":")
        text.appendArray(results) { text, result in
            text.append("{\"mutationID\":")
            text.appendUUID(result.mutationID)
            if let refusal = result.refusal {
                text.append(",\"reason\":")
                text.appendString(refusal)
            }
            if let row = result.serverRow {
                text.append(",\"row\":")
                text.appendRow(row.json)
            }
            text.append(",\"status\":")
            switch result.status {
            case .applied: text.append("\"applied\"")
            case .conflict: text.append("\"conflict\"")
            case .refused: text.append("\"refused\"")
            }
            if let version = result.version {
                text.append(",\"version\":")
                text.appendInteger(version)
            }
            text.append("}")
        }
        text.append("}")
        return Data(text.bytes)
    }

    /// Decodes the server's answer to `changes` and checks it by `schema`,
    /// the device's declaration: one result per change, in order, with its
    /// mutation id; an upsert applied has the version it gave the row; a
    /// conflict's row has the change's id and a version, and its values
    /// pass their columns (those the declaration lacks, of a server with a
    /// later one, are left out). Throws for the first bad element, by its
    /// JSON path: an answer that does not fit its change is never taken,
    /// and the change stays queued.
    public static func decode(_ data: Data, answering changes: [SyncChange], schema: SyncSchema) throws(SyncMessageError) -> SyncChangeResults {
        do {
            return try StrictJSON.Reader.reading(data) { json throws(StrictJSON.Violation) in
                var reading = Reading(json, answering: changes, schema: schema)
                return try reading.answer()
            }
        } catch {
            throw SyncMessageError(error)
        }
    }
}
