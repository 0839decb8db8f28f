import Foundation

extension SyncStoredJSON {
    /// A JSON object of scalar values, as the engine stores a row's values
    /// (``text(_:)``): what `decode([String: SyncJSONScalar].self, from:)`
    /// reads, read without `JSONDecoder` (which costs a server about 10 µs
    /// a row, on every read of every stored row) when the text holds
    /// strings, integers, booleans and nulls only; anything else (a real,
    /// which `JSONDecoder` may read as an integer, or text that is not
    /// such an object) goes to `JSONDecoder`, so both give the same
    /// values and the same errors.
    ///
    /// ```swift
    /// try SyncStoredJSON.scalars(from: #"{"name":"Zoé","score":7}"#)   // ["name": .string("Zoé"), "score": .integer(7)]
    /// ```
    public static func scalars(from text: String) throws -> [String: SyncJSONScalar] {
        if let object = FlatObjectReader.read(text) { return object }
        return try decode([String: SyncJSONScalar].self, from: text)
    }

    /// A JSON object of integers (the versions of a stored row's columns),
    /// read as ``scalars(from:)`` reads.
    public static func integers(from text: String) throws -> [String: Int64] {
        if let object = FlatObjectReader.readIntegers(text) { return object }
        return try decode([String: Int64].self, from: text)
    }
}

/// Reads `{"key": value, …}` whose values are strings, integers that fit
/// an `Int64`, `true`, `false` or `null`, with JSON's white space and
/// string escapes; nil for anything else, or a key twice (which
/// `JSONDecoder` decides). It reads the bytes of a `String`, which are
/// valid UTF-8.
struct FlatObjectReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    static func read(_ text: String) -> [String: SyncJSONScalar]? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = FlatObjectReader(bytes: bytes)
            return reader.object { reader in reader.scalar() }
        }
    }

    /// An object of integers only; nil for any other value.
    static func readIntegers(_ text: String) -> [String: Int64]? {
        var text = text
        return text.withUTF8 { bytes in
            var reader = FlatObjectReader(bytes: bytes)
            return reader.object { reader in reader.integer() }
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func object<Value>(_ value: (inout FlatObjectReader) -> Value?) -> [String: Value]? {
        skipWhiteSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var object: [String: Value] = [:]
        object.reserveCapacity(4)
        skipWhiteSpace()
        if take(UInt8(ascii: "}")) { return finished() ? object : nil }
        while true {
            skipWhiteSpace()
            guard let key = string() else { return nil }
            skipWhiteSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhiteSpace()
            guard let value = value(&self), object.updateValue(value, forKey: key) == nil else { return nil }
            skipWhiteSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            return finished() ? object : nil
        }
    }

    private mutating func finished() -> Bool {
        skipWhiteSpace()
        return position == bytes.count
    }

    private mutating func scalar() -> SyncJSONScalar? {
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "\""): return string().map(SyncJSONScalar.string)
        case UInt8(ascii: "t"): return literal("true") ? .boolean(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .boolean(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return integer().map(SyncJSONScalar.integer)
        }
    }

    /// An integer as JSON writes one: `-`, then `0` or digits without a
    /// leading zero, and no fraction or exponent after them.
    private mutating func integer() -> Int64? {
        let isNegative = take(UInt8(ascii: "-"))
        let digitsStart = position
        // Accumulated negative, as Int64.min has no positive.
        var value: Int64 = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.subtractingReportingOverflow(Int64(bytes[position] - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { return nil }
            value = next
            position += 1
        }
        let digits = position - digitsStart
        guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") || bytes[position] | 0x20 == UInt8(ascii: "e") { return nil }
        if isNegative { return value }
        return value == .min ? nil : -value
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { word in UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(word) }
        if matches { position += count }
        return matches
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(32)
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                // Valid UTF-8: a String's bytes, and escapes written as
                // scalars.
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { return nil }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    text.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20:
                // A control character must be escaped in JSON.
                return nil
            default:
                text.append(byte)
            }
        }
        return nil
    }

    /// The scalar of `\uXXXX` (after the `u`), or of a surrogate pair.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hexadecimalUnit() else { return nil }
        if (0xD800...0xDBFF).contains(high) {
            guard literal("\\u"), let low = hexadecimalUnit(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hexadecimalUnit() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for byte in UnsafeBufferPointer(rebasing: bytes[position..<position + 4]) {
            guard let digit = SyncHexadecimal.digit(byte) else { return nil }
            unit = unit << 4 | UInt32(digit)
        }
        position += 4
        return unit
    }

    private mutating func skipWhiteSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }
}
