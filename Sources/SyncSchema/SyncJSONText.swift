import Foundation

/// The engine's one JSON writer: every message (pages, pushes, their
/// answers, a row of the server's rows) and every JSON text a store keeps
/// (``SyncStoredJSON``) is written with it, byte by byte, as `JSONEncoder`
/// writes it with sorted keys and without escaping slashes: `"` and `\`
/// escaped, the control characters as `\b`, `\f`, `\n`, `\r`, `\t` or
/// `\u00XX`, everything else as it is; a real as its shortest text that
/// reads back the same, without `.0` when it is whole. The tests compare
/// its text with `JSONEncoder`'s.
///
/// ```swift
/// var text = SyncJSONText()
/// text.append("{\"name\":")
/// text.appendString("Zoé")
/// text.append("}")
/// ```
public struct SyncJSONText {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `[`, each element written by `element`, separated by commas, `]`.
    public mutating func appendArray<Element>(_ elements: [Element], _ element: (inout SyncJSONText, Element) -> Void) {
        append("[")
        for (index, value) in elements.enumerated() {
            if index > 0 { append(",") }
            element(&self, value)
        }
        append("]")
    }

    /// The epochs of a history as every page carries them (sorted keys).
    public mutating func appendEpochs(_ epochs: [SyncEpoch]) {
        appendArray(epochs) { text, epoch in
            text.append("{\"epoch\":")
            text.appendString(epoch.epoch)
            text.append(",\"start\":")
            text.appendInteger(epoch.start)
            text.append("}")
        }
    }

    public mutating func appendInteger(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite real as `JSONEncoder` writes it: Swift's shortest text
    /// that reads back the same double (`0.1`, `1e+16`, `5e-324`), without
    /// the `.0` of a whole number (`7`, `-0`).
    public mutating func appendReal(_ value: Double) {
        precondition(value.isFinite, "JSON has no text for \(value): a declared column refuses it")
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    public mutating func appendUUID(_ uuid: UUID) {
        appendString(uuid.uuidString)
    }

    /// A row's value as JSON (``SyncJSONScalar/init(_:)``: a UUID as its
    /// canonical string).
    public mutating func appendValue(_ value: SyncValue) {
        appendScalar(SyncJSONScalar(value))
    }

    public mutating func appendScalar(_ scalar: SyncJSONScalar) {
        switch scalar {
        case .null: append("null")
        case .string(let string): appendString(string)
        case .integer(let integer): appendInteger(integer)
        case .real(let real): appendReal(real)
        case .boolean(let boolean): append(boolean ? "true" : "false")
        }
    }

    /// An object of `members`, its keys sorted, each value written by
    /// `value`.
    public mutating func appendObject<Value>(_ members: [String: Value], _ value: (inout SyncJSONText, Value) -> Void) {
        append("{")
        for (index, (key, member)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { append(",") }
            appendString(key)
            append(":")
            value(&self, member)
        }
        append("}")
    }

    /// A row as its messages carry it and its stores keep it:
    /// `{"id":"…","values":{…}}`.
    public mutating func appendRow(_ row: SyncRowJSON) {
        append("{\"id\":")
        appendString(row.id)
        append(",\"values\":")
        appendObject(row.values) { $0.appendScalar($1) }
        append("}")
    }

    /// A table's digest, as a page sends it and a device keeps it.
    public mutating func appendDigest(_ digest: SyncTableDigest) {
        append("{\"checksum\":")
        appendString(digest.hexadecimalChecksum)
        append(",\"columns\":")
        appendArray(digest.columns) { text, column in text.appendString(column) }
        append(",\"rows\":")
        appendInteger(Int64(digest.rows))
        append(",\"table\":")
        appendString(digest.table)
        append("}")
    }

    /// The text written so far.
    public var text: String {
        String(decoding: bytes, as: UTF8.self)
    }

    public mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
