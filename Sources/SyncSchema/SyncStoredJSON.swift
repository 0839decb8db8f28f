import Foundation

/// The JSON that the engine keeps in a database (the device's frozen,
/// staged and logged rows and its digests; the server's stored rows and
/// answers): written by the engine's one writer (``SyncJSONText``) and
/// read by its one reader (``StrictJSON/Reader``), so that the same value
/// is always the same text, and reads back the same.
///
/// ```swift
/// let text = SyncStoredJSON.text(row.json)
/// let json = try SyncStoredJSON.row(from: text)
/// ```
public enum SyncStoredJSON {
    /// A row's values: `{"name":"Zoé","score":7}`.
    public static func text(_ values: [String: SyncValue]) -> String {
        written { $0.appendObject(values) { $0.appendValue($1) } }
    }

    /// The versions of a row's columns: `{"name":41,"score":42}`.
    public static func text(_ integers: [String: Int64]) -> String {
        written { $0.appendObject(integers) { $0.appendInteger($1) } }
    }

    /// A row: `{"id":"…","values":{…}}`.
    public static func text(_ row: SyncRowJSON) -> String {
        written { $0.appendRow(row) }
    }

    /// The digests of a page, as a device keeps them until the next.
    public static func text(_ digests: [SyncTableDigest]) -> String {
        written { $0.appendArray(digests) { $0.appendDigest($1) } }
    }

    private static func written(_ write: (inout SyncJSONText) -> Void) -> String {
        var text = SyncJSONText()
        write(&text)
        return text.text
    }
}
