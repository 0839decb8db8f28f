import Foundation
import SyncSchema

extension SyncRecordedAnswer {
    /// A recorded answer as a store's columns hold it, the same in every
    /// store.
    public struct Columns: Sendable, Equatable {
        public var table: String
        public var rowID: String
        /// `upsert` or `delete`.
        public var operation: String
        /// The change's fingerprint; nil for an answer kept before they
        /// were.
        public var changeFingerprint: String?
        /// `applied` or `conflict`.
        public var status: String
        public var version: Int64?
        /// The server's row of a conflict, as a JSON object of values.
        public var serverValues: String?
        public var answeredAt: Date

        public init(table: String, rowID: String, operation: String, changeFingerprint: String?, status: String, version: Int64?,
                    serverValues: String?, answeredAt: Date) {
            self.table = table
            self.rowID = rowID
            self.operation = operation
            self.changeFingerprint = changeFingerprint
            self.status = status
            self.version = version
            self.serverValues = serverValues
            self.answeredAt = answeredAt
        }
    }

    /// The answer's columns, as a store writes them.
    public func columns() throws -> Columns {
        Columns(table: key.table, rowID: key.id.uuidString, operation: operation.rawValue, changeFingerprint: fingerprint,
                status: result.status == .applied ? "applied" : "conflict", version: result.version,
                serverValues: result.serverRow.map { SyncStoredJSON.text($0.values) },
                answeredAt: answeredAt)
    }

    /// An answer read back from a store's columns.
    public init(mutationID: UUID, columns: Columns, schema: SyncSchema) throws {
        guard let table = schema.table(columns.table) else { throw SyncChangeError.unknownTable(columns.table) }
        guard let id = UUID(parsing: columns.rowID), let operation = SyncChange.Operation(rawValue: columns.operation),
              ["applied", "conflict"].contains(columns.status) else {
            throw SyncChangeError.storedAnswerDamaged(mutationID)
        }
        var serverRow: SyncRow?
        if let text = columns.serverValues {
            let values = try SyncStoredJSON.scalars(from: text)
            do {
                serverRow = try table.row(from: SyncRowJSON(id: id.uuidString, values: values), carrying: .changed)
            } catch {
                throw SyncChangeError.storedRowRefused(error)
            }
        }
        self.init(key: SyncRowKey(table: table.name, id: id), operation: operation, fingerprint: columns.changeFingerprint,
                  result: SyncPushResult(mutationID: mutationID, status: columns.status == "applied" ? .applied : .conflict,
                                         version: columns.version, serverRow: serverRow),
                  answeredAt: columns.answeredAt)
    }
}
