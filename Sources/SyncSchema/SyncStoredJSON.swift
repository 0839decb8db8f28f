import Foundation

/// The JSON that the engine keeps in a database (the device's frozen,
/// staged and logged rows; the server's stored rows and answers): one
/// encoding, so that the same value is always the same text.
///
/// ```swift
/// let text = try SyncStoredJSON.text(row.json)
/// let json = try SyncStoredJSON.decode(SyncRowJSON.self, from: text)
/// ```
public enum SyncStoredJSON {
    public static func text<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
