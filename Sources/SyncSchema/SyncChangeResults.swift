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

    /// The answer as JSON has it, before a declaration reads its rows.
    struct Wire: Encodable {
        struct Result: Encodable {
            var mutationID: UUID
            var status: String
            var version: Int64?
            var row: SyncRowJSON?
        }

        var protocolVersion: Int
        var results: [Result]
    }
}
