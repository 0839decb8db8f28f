import Foundation

extension SyncServerRow {
    /// The row as the server's rows answer it, and as a page lists it:
    /// `{"id": "…", "table": "player", "values": {…}, "version": 42}`.
    public func jsonData() -> Data {
        var text = SyncJSONText()
        text.appendServerRow(self)
        return Data(text.bytes)
    }
}

extension SyncJSONText {
    /// A server's row: `{"id":"…","table":"player","values":{…},"version":42}`.
    public mutating func appendServerRow(_ row: SyncServerRow) {
        append("{\"id\":")
        appendUUID(row.row.id)
        append(",\"table\":")
        appendString(row.row.table)
        append(",\"values\":")
        appendObject(row.row.values) { $0.appendValue($1) }
        append(",\"version\":")
        appendInteger(row.version)
        append("}")
    }
}
