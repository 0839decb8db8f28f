import Foundation

/// A row as one line of JSON Lines, for the exports and imports of any
/// app's declared tables: `{"id":"5C2F…","table":"note","values":{…}}`,
/// every column of the row, written by the engine's writer
/// (``SyncJSONText``), read by its reader and checked by the declaration
/// as a pushed row is.
///
/// ```swift
/// let line = SyncRowLine.text(row)
/// let same = try SyncRowLine.row(line, schema: schema)
/// ```
public enum SyncRowLine {
    /// The row's line, without its newline.
    public static func text(_ row: SyncRow) -> String {
        var text = SyncJSONText()
        text.append("{\"id\":")
        text.appendUUID(row.id)
        text.append(",\"table\":")
        text.appendString(row.table)
        text.append(",\"values\":")
        text.appendObject(row.values) { $0.appendValue($1) }
        text.append("}")
        return text.text
    }

    /// The row a line holds: strict JSON, a table of `schema`, a whole
    /// row whose every value passes its column; otherwise the first bad
    /// element, by its JSON path (`$.values.title`).
    public static func row(_ line: String, schema: SyncSchema) throws(SyncMessageError) -> SyncRow {
        let read: (id: String, table: String, values: [String: SyncJSONScalar])
        do {
            read = try StrictJSON.Reader.reading(line) { json throws(StrictJSON.Violation) in
                var members = try json.beginObject()
                var id: String?, table: String?, values: [String: SyncJSONScalar]?
                while let key = try json.nextKey(&members) {
                    switch key {
                    case "id": id = try json.string()
                    case "table": table = try json.string()
                    case "values": values = try json.rowValues()
                    default: throw json.violation("unknown key")
                    }
                }
                guard let id else { throw json.missing("id") }
                guard let table else { throw json.missing("table") }
                guard let values else { throw json.missing("values") }
                try json.end()
                return (id, table, values)
            }
        } catch {
            throw SyncMessageError(error)
        }
        guard let table = schema.table(read.table) else {
            throw SyncMessageError(path: "$.table", "\(read.table.debugDescription) is not a table of this declaration")
        }
        return try SyncMessages.row(table, id: read.id, values: read.values, carrying: .whole, path: "$")
    }
}
