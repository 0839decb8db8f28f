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
        var scanner = Scanner(bytes: [UInt8](data), shapes: Shapes(keys: keys, anyNumberIn: anyNumberIn))
        try scanner.skipWhitespace()
        try scanner.value(shape: Shapes.root)
        guard scanner.current == nil else { throw StrictJSON.Violation(path: "$", "not valid JSON") }
    }

    /// The paths of `keys` and `anyNumberIn` as a tree, so that the scanner
    /// follows a message's shape by numbers, without making a string for
    /// every element: a shape is a node, `$` the root, and a member or an
    /// array's element (`[]`) a child; a path that no rule names is
    /// ``unknown``, as are all below it.
    struct Shapes {
        static let root = 0
        static let unknown = -1
        private var children: [[String: Int]] = [[:]]
        private(set) var allowedKeys: [Set<String>?] = [nil]
        private(set) var anyNumber: [Bool] = [false]

        init(keys: [String: Set<String>], anyNumberIn: Set<String>) {
            for (path, allowed) in keys { allowedKeys[node(path)] = allowed }
            for path in anyNumberIn { anyNumber[node(path)] = true }
        }

        /// The child of `shape` for an object's `key`, or an array's
        /// element (`"[]"`).
        func child(_ shape: Int, _ key: String) -> Int {
            shape == Self.unknown ? Self.unknown : children[shape][key] ?? Self.unknown
        }

        /// The node of a path such as `$.changes[].values`, made if needed.
        private mutating func node(_ path: String) -> Int {
            var node = Self.root
            var rest = Substring(path.dropFirst())
            while !rest.isEmpty {
                let step: String
                if rest.hasPrefix("[]") {
                    step = "[]"
                    rest = rest.dropFirst(2)
                } else {
                    let name = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                    step = String(name)
                    rest = rest.dropFirst(1 + name.count)
                }
                if let next = children[node][step] {
                    node = next
                } else {
                    children.append([:])
                    allowedKeys.append(nil)
                    anyNumber.append(false)
                    children[node][step] = children.count - 1
                    node = children.count - 1
                }
            }
            return node
        }
    }

    private struct Scanner {
        /// A step of the path to the element being read: written out only
        /// for an error.
        enum Step {
            case key(String)
            case index(Int)
        }

        let bytes: [UInt8]
        let shapes: Shapes
        var index = 0
        var path: [Step] = []
        /// The keys met so far in the objects being read, the innermost
        /// object's last.
        var keys: [String] = []

        init(bytes: [UInt8], shapes: Shapes) {
            self.bytes = bytes
            self.shapes = shapes
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// The error at the element being read.
        func violation(_ message: String) -> StrictJSON.Violation {
            var text = "$"
            for step in path {
                switch step {
                case .key(let key): text += ".\(key.prefix(40))"
                case .index(let index): text += "[\(index)]"
                }
            }
            return StrictJSON.Violation(path: text, message)
        }

        mutating func skipWhitespace() throws(StrictJSON.Violation) {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// One value, of the shape `shape` (a node of ``Shapes``).
        mutating func value(shape: Int, anyNumber: Bool = false) throws(StrictJSON.Violation) {
            guard let byte = current else { throw violation("not valid JSON") }
            switch byte {
            case UInt8(ascii: "{"): try object(shape: shape)
            case UInt8(ascii: "["): try array(shape: shape)
            case UInt8(ascii: "\""): _ = try string(decoded: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(anyNumber: anyNumber)
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw violation("not valid JSON")
            }
            try skipWhitespace()
        }

        mutating func object(shape: Int) throws(StrictJSON.Violation) {
            index += 1
            try skipWhitespace()
            if current == UInt8(ascii: "}") { index += 1; return }
            let allowed = shape == Shapes.unknown ? nil : shapes.allowedKeys[shape]
            let anyNumber = shape != Shapes.unknown && shapes.anyNumber[shape]
            let firstKey = keys.count
            defer { keys.removeSubrange(firstKey...) }
            while true {
                guard current == UInt8(ascii: "\"") else { throw violation("not valid JSON") }
                let key = try string(decoded: true)
                path.append(.key(key))
                // An object has few keys: a search costs less than a set.
                guard !keys[firstKey...].contains(key) else { throw violation("appears twice") }
                if let allowed, !allowed.contains(key) { throw violation("unknown key") }
                keys.append(key)
                path.removeLast()
                try skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw violation("not valid JSON") }
                index += 1
                try skipWhitespace()
                path.append(.key(key))
                try value(shape: shapes.child(shape, key), anyNumber: anyNumber)
                path.removeLast()
                switch current {
                case UInt8(ascii: ","): index += 1; try skipWhitespace()
                case UInt8(ascii: "}"): index += 1; return
                default: throw violation("not valid JSON")
                }
            }
        }

        mutating func array(shape: Int) throws(StrictJSON.Violation) {
            index += 1
            try skipWhitespace()
            if current == UInt8(ascii: "]") { index += 1; return }
            let elementShape = shapes.child(shape, "[]")
            var element = 0
            while true {
                path.append(.index(element))
                try value(shape: elementShape)
                path.removeLast()
                element += 1
                switch current {
                case UInt8(ascii: ","): index += 1; try skipWhitespace()
                case UInt8(ascii: "]"): index += 1; return
                default: throw violation("not valid JSON")
                }
            }
        }

        /// A string; `decoded`, its text, escapes decoded (keys are
        /// compared decoded: `"n\u0061me"` is `name`).
        mutating func string(decoded: Bool) throws(StrictJSON.Violation) -> String {
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
                        throw violation("not valid JSON")
                    }
                    return text
                }
            }
            throw violation("not valid JSON")
        }

        /// An integer as JSON writes one: `-?(0|[1-9][0-9]*)`, and not `-0`;
        /// where `anyNumber`, any number of JSON's grammar (a fraction, an
        /// exponent).
        mutating func number(anyNumber: Bool) throws(StrictJSON.Violation) {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            let digits = index
            skipDigits()
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            let isInteger = index > digits && !(bytes[digits] == UInt8(ascii: "0") && index - digits > 1) && text != "-0"
            let continues = current.map { [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains($0) } ?? false
            if isInteger, !continues { return }
            guard anyNumber else {
                throw violation("not an integer written as one (digits only, no fraction, exponent or -0)")
            }
            let notANumber = violation("not a number as JSON writes one")
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

        mutating func literal(_ word: String) throws(StrictJSON.Violation) {
            let end = index + word.utf8.count
            guard end <= bytes.count, bytes[index..<end].elementsEqual(word.utf8) else {
                throw violation("not valid JSON")
            }
            index = end
        }
    }
}
