import Foundation

/// The rules a message of the protocol follows beyond JSON's grammar,
/// which Foundation's parsers do not check: no object has a key twice
/// (parsers disagree on which one wins), every number is an integer
/// written as one (`100`, never `1e2`, `100.0` or `-0`), and, where the
/// message's shape is known, no key is unknown (a misspelled key is an
/// error, never a field silently dropped). Throws ``Violation`` for the
/// first element that breaks one, by its JSON path. The sync protocol's
/// messages and the declarations of synced tables are both read so.
///
/// ```swift
/// try StrictJSON.check(data, keys: ["$": ["protocolVersion", "changes"]])
/// // $.changes[0].baseversion: unknown key
/// ```
public enum StrictJSON {
    /// The first element that breaks a rule: `$.changes[0].name: appears twice`.
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        /// The JSON path of the element: `$` for the whole text.
        public var path: String
        /// What is wrong with it.
        public var message: String

        init(path: String, _ message: String) {
            self.path = path
            self.message = message
        }

        public var description: String { "\(path): \(message)" }
    }

    /// Checks `data`, which the caller's parser has found or will find to
    /// be JSON. `keys` gives the keys allowed in the objects at a path,
    /// where array indices are written `[]` (`$.changes[]`); an object at
    /// another path may have any key. The members of the objects at the
    /// paths of `anyNumberIn` may be any JSON number (`1.5`, `2e-3`): the
    /// values of a row, whose `real` columns have fractions.
    public static func check(_ data: Data, keys: [String: Set<String>] = [:], anyNumberIn: Set<String> = []) throws(StrictJSON.Violation) {
        var scanner = Scanner(bytes: [UInt8](data), keys: keys, anyNumberIn: anyNumberIn)
        try scanner.skipWhitespace()
        try scanner.value(path: "$", shape: "$")
        guard scanner.current == nil else { throw StrictJSON.Violation(path: "$", "not valid JSON") }
    }

    private struct Scanner {
        let bytes: [UInt8]
        let keys: [String: Set<String>]
        let anyNumberIn: Set<String>
        var index = 0

        init(bytes: [UInt8], keys: [String: Set<String>], anyNumberIn: Set<String>) {
            self.bytes = bytes
            self.keys = keys
            self.anyNumberIn = anyNumberIn
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() throws(StrictJSON.Violation) {
            while let byte = current, [0x20, 0x09, 0x0A, 0x0D].contains(byte) { index += 1 }
        }

        /// One value at `path` (`shape`: the path with `[]` for indices).
        mutating func value(path: String, shape: String, anyNumber: Bool = false) throws(StrictJSON.Violation) {
            guard let byte = current else { throw StrictJSON.Violation(path: path, "not valid JSON") }
            switch byte {
            case UInt8(ascii: "{"): try object(path: path, shape: shape)
            case UInt8(ascii: "["): try array(path: path, shape: shape)
            case UInt8(ascii: "\""): _ = try string(path: path, decoded: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(path: path, anyNumber: anyNumber)
            case UInt8(ascii: "t"): try literal("true", path: path)
            case UInt8(ascii: "f"): try literal("false", path: path)
            case UInt8(ascii: "n"): try literal("null", path: path)
            default: throw StrictJSON.Violation(path: path, "not valid JSON")
            }
            try skipWhitespace()
        }

        mutating func object(path: String, shape: String) throws(StrictJSON.Violation) {
            index += 1
            try skipWhitespace()
            var seen = Set<String>()
            if current == UInt8(ascii: "}") { index += 1; return }
            while true {
                guard current == UInt8(ascii: "\"") else { throw StrictJSON.Violation(path: path, "not valid JSON") }
                let key = try string(path: path, decoded: true)
                let keyPath = "\(path).\(key.prefix(40))"
                guard seen.insert(key).inserted else { throw StrictJSON.Violation(path: keyPath, "appears twice") }
                if let allowed = keys[shape], !allowed.contains(key) { throw StrictJSON.Violation(path: keyPath, "unknown key") }
                try skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw StrictJSON.Violation(path: path, "not valid JSON") }
                index += 1
                try skipWhitespace()
                try value(path: keyPath, shape: "\(shape).\(key)", anyNumber: anyNumberIn.contains(shape))
                switch current {
                case UInt8(ascii: ","): index += 1; try skipWhitespace()
                case UInt8(ascii: "}"): index += 1; return
                default: throw StrictJSON.Violation(path: path, "not valid JSON")
                }
            }
        }

        mutating func array(path: String, shape: String) throws(StrictJSON.Violation) {
            index += 1
            try skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return }
            var element = 0
            while true {
                try value(path: "\(path)[\(element)]", shape: "\(shape)[]")
                element += 1
                switch current {
                case UInt8(ascii: ","): index += 1; try skipWhitespace()
                case UInt8(ascii: "]"): index += 1; return
                default: throw StrictJSON.Violation(path: path, "not valid JSON")
                }
            }
        }

        /// A string; `decoded`, its text, escapes decoded (keys are
        /// compared decoded: `"n\u0061me"` is `name`).
        mutating func string(path: String, decoded: Bool) throws(StrictJSON.Violation) -> String {
            let start = index
            index += 1
            var escaped = false, hasEscapes = false
            while let byte = current {
                index += 1
                if escaped { escaped = false; continue }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    hasEscapes = true
                } else if byte == UInt8(ascii: "\"") {
                    guard decoded else { return "" }
                    guard hasEscapes else { return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self) }
                    guard let text = try? JSONDecoder().decode(String.self, from: Data(bytes[start..<index])) else {
                        throw StrictJSON.Violation(path: path, "not valid JSON")
                    }
                    return text
                }
            }
            throw StrictJSON.Violation(path: path, "not valid JSON")
        }

        /// An integer as JSON writes one: `-?(0|[1-9][0-9]*)`, and not `-0`;
        /// where `anyNumber`, any number of JSON's grammar (a fraction, an
        /// exponent).
        mutating func number(path: String, anyNumber: Bool) throws(StrictJSON.Violation) {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            let digits = index
            skipDigits()
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            let isInteger = index > digits && !(bytes[digits] == UInt8(ascii: "0") && index - digits > 1) && text != "-0"
            let continues = current.map { [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains($0) } ?? false
            if isInteger, !continues { return }
            guard anyNumber else {
                throw StrictJSON.Violation(path: path, "not an integer written as one (digits only, no fraction, exponent or -0)")
            }
            let notANumber = StrictJSON.Violation(path: path, "not a number as JSON writes one")
            guard index > digits, !(bytes[digits] == UInt8(ascii: "0") && index - digits > 1) else { throw notANumber }
            if current == UInt8(ascii: ".") {
                index += 1
                guard skipDigits() else { throw notANumber }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { throw notANumber }
            }
        }

        /// Skips digits; whether there was one.
        @discardableResult
        mutating func skipDigits() -> Bool {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index > start
        }

        mutating func literal(_ word: String, path: String) throws(StrictJSON.Violation) {
            let end = index + word.utf8.count
            guard end <= bytes.count, bytes[index..<end].elementsEqual(word.utf8) else {
                throw StrictJSON.Violation(path: path, "not valid JSON")
            }
            index = end
        }
    }
}
