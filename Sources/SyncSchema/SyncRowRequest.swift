import Foundation

/// The body of a script's edit of one row of a declared table, through the
/// server's rows (`POST /v1/rows/TABLE`, `PUT /v1/rows/TABLE/ID`:
/// Docs/Server.md): the row's values, checked by its columns as a push's
/// are, its id when the script chose it, and the version it was edited on.
///
/// ```json
/// {"id": "F5C26609-7F7B-4D7C-AD4B-D020CE548EFD", "values": {"name": "Arthur", "score": 42}}
/// {"values": {"score": 50}, "version": 21}
/// ```
///
/// ```swift
/// let edit = try SyncRowRequest.decode(body, table: player, carrying: .changed, id: pathID)
/// ```
public struct SyncRowRequest: Sendable, Equatable {
    /// The row: the id of the body, else the one given to ``decode(_:table:carrying:id:)``.
    public var row: SyncRow
    /// Whether the body named the row's id.
    public var namesID: Bool
    /// The version the edit was made on, if the body gives it.
    public var version: Int64?

    /// Reads a body by `table`'s declaration: strict JSON (``StrictJSON``),
    /// the keys `id`, `values` (required) and `version` only, each value
    /// checked by its column, every required one with `.whole`. Throws for
    /// the first bad element, by its JSON path.
    public static func decode(_ data: Data, table: SyncTable, carrying columns: SyncTable.RowColumns,
                              id defaultID: UUID) throws(SyncMessageError) -> SyncRowRequest {
        var id: String?, values: [String: SyncJSONScalar]?, version: Int64?
        do throws(StrictJSON.Violation) {
            try StrictJSON.Reader.reading(data) { json throws(StrictJSON.Violation) in
                var object = try json.beginObject()
                while let key = try json.nextKey(&object) {
                    switch key {
                    case "id": id = try json.string()
                    case "values": values = try json.rowValues()
                    case "version": version = try json.version()
                    default: throw json.violation("unknown key")
                    }
                }
                try json.end()
                guard values != nil else { throw json.missing("values") }
            }
        } catch {
            throw SyncMessageError(error)
        }
        let row = try SyncMessages.row(table, id: id ?? defaultID.uuidString, values: values ?? [:], carrying: columns, path: "$")
        return SyncRowRequest(row: row, namesID: id != nil, version: version)
    }
}
