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

    /// The batch as JSON (``SyncJSONText``).
    public func jsonData() -> Data {
        var text = SyncJSONText()
        text.append("{\"changes\":")
        text.appendArray(changes) { text, change in
            if let baseVersion = change.baseVersion {
                text.append("{\"baseVersion\":")
                text.appendInteger(baseVersion)
                text.append(",\"id\":")
            } else {
                text.append("{\"id\":")
            }
            text.appendUUID(change.row.id)
            text.append(",\"mutationID\":")
            text.appendUUID(change.mutationID)
            text.append(",\"operation\":")
            text.appendString(change.operation.rawValue)
            text.append(",\"table\":")
            text.appendString(change.row.table)
            if change.operation == .upsert {
                text.append(",\"values\":")
                text.appendObject(change.row.values) { $0.appendValue($1) }
            }
            text.append("}")
        }
        text.append(",\"protocolVersion\":")
        text.appendInteger(Int64(SyncMessages.protocolVersion))
        if let server {
            text.append(",\"server\":")
            text.appendUUID(server)
        }
        text.append("}")
        return Data(text.bytes)
    }

    /// Decodes a batch and checks it by `schema`, the receiver's
    /// declaration: strict JSON (``StrictJSON``; a row's integer written
    /// as one), the protocol version, at most ``maximumChanges`` changes,
    /// a table the declaration has, the values of an upsert checked by
    /// their columns (a whole row in a `server-wins` table, the columns
    /// the change touched in one merged by column), none in a delete, a
    /// positive base version, no mutation id and no row twice. Throws for
    /// the first bad element, by its JSON path.
    public static func decode(_ data: Data, schema: SyncSchema) throws(SyncMessageError) -> SyncChangeBatch {
        do {
            return try StrictJSON.Reader.reading(data) { json throws(StrictJSON.Violation) in
                var reading = Reading(json, schema: schema)
                return try reading.batch()
            }
        } catch {
            throw SyncMessageError(error)
        }
    }
}
