import Foundation
import SyncSchema

extension SyncStoredPage {
    /// The page's rows as a message carries them: the live ones with their
    /// values and versions (as the store read them: of their table's
    /// columns and types), the deleted ones as tombstones, in the page's
    /// order.
    public func messageParts(schema: SyncSchema) throws -> (rows: [SyncServerRow], tombstones: [SyncTombstone]) {
        var serverRows: [SyncServerRow] = []
        var tombstones: [SyncTombstone] = []
        for row in rows {
            guard let values = row.values else {
                tombstones.append(SyncTombstone(table: row.key.table, id: row.key.id, version: row.version))
                continue
            }
            guard let table = schema.table(row.key.table) else { throw SyncChangeError.unknownTable(row.key.table) }
            serverRows.append(SyncServerRow(row: table.storedRow(id: row.key.id, values: values), version: row.version))
        }
        return (serverRows, tombstones)
    }
}
