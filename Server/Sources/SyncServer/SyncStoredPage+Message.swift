import Foundation
import SyncSchema

extension SyncStoredPage {
    /// The page's rows as a message carries them: the live ones with their
    /// values and versions (each row whole, checked by its table's
    /// declaration), the deleted ones as tombstones, in the page's order.
    public func messageParts(schema: SyncSchema) throws -> (rows: [SyncServerRow], tombstones: [SyncTombstone]) {
        var serverRows: [SyncServerRow] = []
        var tombstones: [SyncTombstone] = []
        for row in rows {
            guard let values = row.values else {
                tombstones.append(SyncTombstone(table: row.key.table, id: row.key.id, version: row.version))
                continue
            }
            guard let table = schema.table(row.key.table) else { throw SyncChangeError.unknownTable(row.key.table) }
            do {
                serverRows.append(SyncServerRow(row: try table.row(id: row.key.id, values: values), version: row.version))
            } catch {
                throw SyncChangeError.storedRowRefused(error)
            }
        }
        return (serverRows, tombstones)
    }
}
