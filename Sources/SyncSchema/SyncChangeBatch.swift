import Foundation

/// The body of a push (Docs/SyncEngine.md): the changes a device sends,
/// in the order it made them, each with the mutation id that makes its
/// retry harmless.
///
/// ```json
/// {"protocolVersion": 1, "server": "…", "changes": [
///   {"mutationID": "…", "table": "note", "id": "…", "operation": "upsert", "baseVersion": 41,
///    "values": {"title": "Groceries"}}]}
/// ```
///
/// ```swift
/// let body = try SyncChangeBatch(changes: batch.map(\.change)).jsonData()
/// let received = try SyncChangeBatch.decode(request.body, schema: schema)   // checked by the server's declaration
/// ```
public struct SyncChangeBatch: Sendable, Equatable {
    /// The most changes one batch holds.
    public static let maximumChanges = 500

    public var changes: [SyncChange]
    /// The identity of the server database the device synced with, if it
    /// did: a server of another identity refuses the batch rather than
    /// take changes meant for another database.
    public var server: UUID?

    public init(changes: [SyncChange], server: UUID? = nil) {
        self.changes = changes
        self.server = server
    }

    public func jsonData() throws -> Data {
        try SyncMessages.data(Wire(
            protocolVersion: SyncMessages.protocolVersion, server: server,
            changes: changes.map { change in
                Wire.Change(mutationID: change.mutationID, table: change.row.table, id: change.row.id.uuidString,
                            operation: change.operation.rawValue, baseVersion: change.baseVersion,
                            values: change.operation == .upsert ? change.row.json.values : nil)
            }))
    }

    /// Decodes a batch and checks it by `schema`, the receiver's
    /// declaration: strict JSON, the protocol version, at most
    /// ``maximumChanges`` changes, a table the declaration has, the values
    /// of an upsert checked by their columns (a whole row in a
    /// `server-wins` table, the columns the change touched in one merged by
    /// column), none in a delete, a positive base version, no mutation id
    /// and no row twice. Throws for the first bad element, by its JSON
    /// path.
    public static func decode(_ data: Data, schema: SyncSchema) throws(SyncMessageError) -> SyncChangeBatch {
        let wire = try SyncMessages.decode(Wire.self, from: data, keys: [
            "$": ["protocolVersion", "server", "changes"],
            "$.changes[]": ["mutationID", "table", "id", "operation", "baseVersion", "values"],
        ], rowValues: ["$.changes[].values"], version: \.protocolVersion)
        guard wire.changes.count <= maximumChanges else {
            throw SyncMessageError(path: "$.changes", "more than \(maximumChanges) changes")
        }
        var mutationIDs: Set<UUID> = []
        var rows: Set<String> = []
        var changes: [SyncChange] = []
        for (index, change) in wire.changes.enumerated() {
            let path = "$.changes[\(index)]"
            guard let table = schema.table(change.table) else {
                throw SyncMessageError(path: "\(path).table", "\(change.table) is not a table this server syncs: update its declaration first")
            }
            guard let operation = SyncChange.Operation(rawValue: change.operation) else {
                throw SyncMessageError(path: "\(path).operation", "neither upsert nor delete")
            }
            let values: [String: SyncJSONScalar]
            switch (operation, change.values) {
            case (.upsert, let sent?): values = sent
            case (.upsert, nil): throw SyncMessageError(path: "\(path).values", "missing")
            case (.delete, nil): values = [:]
            case (.delete, _?): throw SyncMessageError(path: "\(path).values", "not allowed in a delete")
            }
            let row = try SyncMessages.row(table, id: change.id, values: values,
                                           carrying: table.conflicts == .serverWins && operation == .upsert ? .whole : .changed, path: path)
            if let baseVersion = change.baseVersion, baseVersion <= 0 {
                throw SyncMessageError(path: "\(path).baseVersion", "not positive")
            }
            guard mutationIDs.insert(change.mutationID).inserted else {
                throw SyncMessageError(path: "\(path).mutationID", "\(change.mutationID.uuidString) appears twice")
            }
            guard rows.insert("\(table.name) \(row.id.uuidString)").inserted else {
                throw SyncMessageError(path: "\(path).id", "\(row.id.uuidString) of \(table.name) appears twice: send one change per row in a batch")
            }
            changes.append(SyncChange(mutationID: change.mutationID, operation: operation, row: row, baseVersion: change.baseVersion))
        }
        return SyncChangeBatch(changes: changes, server: wire.server)
    }

    /// The batch as JSON has it, before a declaration reads its rows.
    struct Wire: Codable {
        struct Change: Codable {
            var mutationID: UUID
            var table: String
            var id: String
            var operation: String
            var baseVersion: Int64?
            var values: [String: SyncJSONScalar]?
        }

        var protocolVersion: Int
        var server: UUID?
        var changes: [Change]
    }
}
