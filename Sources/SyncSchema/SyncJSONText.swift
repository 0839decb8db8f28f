/// JSON written byte by byte as `JSONEncoder` writes it without escaping
/// slashes (``SyncStoredJSON``, the API's encoder): `"` and `\` escaped,
/// the control characters as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00XX`,
/// everything else as it is. The messages that a server writes for every
/// request (a page of rows) are written with it, and their tests compare
/// them with `JSONEncoder`'s text.
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
