import Foundation

extension SyncServerRow {
    /// The row as the server's rows answer it, and as a page lists it:
    /// `{"id": "…", "table": "player", "values": {…}, "version": 42}`.
    public func jsonData() throws -> Data {
        try SyncMessages.data(SyncPage.Wire.Row(table: row.table, id: row.id.uuidString, version: version, values: row.json.values))
    }
}
