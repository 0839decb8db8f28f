import Foundation

extension StrictJSON {
    /// Reads JSON in one pass by ``StrictJSON``'s rules, value by value, as
    /// its reader asks for them: no key twice in an object, integers
    /// written as integers, strings of valid UTF-8. What a message's reader
    /// builds as it goes (a page's rows), without a parser's tree before it
    /// and a check after. Its errors are ``Violation``s at the JSON path of
    /// the element being read; JSON it cannot read is `$: not valid JSON`.
    /// It reads the bytes where they are, never a copy: a reader exists
    /// only in the body of `reading(_:_:)`, for the length of that call (a
    /// server reads a stored row's two texts for every row of every page,
    /// and a copy of each cost about a tenth of the reading).
    ///
    /// ```swift
    /// let version = try StrictJSON.Reader.reading(data) { json throws(StrictJSON.Violation) in
    ///     var version: Int64?
    ///     var object = try json.beginObject()
    ///     while let key = try json.nextKey(&object) {
    ///         switch key {
    ///         case "version": version = try json.integer()
    ///         default: throw json.violation("unknown key")
    ///         }
    ///     }
    ///     try json.end()
    ///     return version
    /// }
    /// ```
    struct Reader {
        /// A step of the trail of the element being read: a step of its
        /// path, written out only for an error, or a key read earlier in an
        /// object being read.
        enum Step {
            /// The member being read of an object.
            case key(String)
            /// The element being read of an array.
            case index(Int)
            /// A member of an object being read, read before the one
            /// being read: off the path, kept for its key, which the
            /// object may not have again.
            case earlierKey(String)
        }

        /// An object being read: where its steps start in the trail, where
        /// it begins in the text, and whether a member was read.
        struct Object {
            fileprivate let firstStep: Int
            fileprivate let start: Int
            fileprivate var hasMembers = false
        }

        /// An array being read: where it begins in the text, and the index
        /// of the next element.
        struct Array {
            fileprivate let start: Int
            fileprivate var count = 0
        }

        /// A number as JSON writes it, before it is read as one type.
        private struct Number {
            var range: Range<Int>
            /// The integer that the digits write, when they are all the
            /// number has and it fits 64 bits.
            var integer: Int64?
            /// Digits only: no fraction, no exponent.
            var isInteger: Bool
            var isNegativeZero: Bool
        }

        /// The text, valid for the call of `reading(_:_:)` that made the
        /// reader.
        private let bytes: UnsafeBufferPointer<UInt8>
        /// Whether the bytes are known to be valid UTF-8 (a string's), so
        /// that a string with letters beyond ASCII is not checked again.
        private let isValidUTF8: Bool
        /// The offset of the next byte to read.
        private(set) var index = 0
        /// The path of the element being read, and the keys read so far in
        /// each object being read (its steps, the innermost object's last):
        /// one array, so that a reader allocates one. An object has few
        /// keys: a search of its steps costs less than a set.
        private var trail: [Step] = []
        /// Where the element being read begins (a member at its key, an
        /// element of an array at its first byte), or the object or array
        /// just read: the place of a violation, for a person to find.
        private var elementStart: Int

        /// Reads `data` in `body`, which may not keep the reader: it
        /// points into `data`'s bytes for the length of the call.
        static func reading<Value>(_ data: Data, _ body: (inout Reader) throws(Violation) -> Value) throws(Violation) -> Value {
            try data.withUnsafeBytes { raw in
                var reader = Reader(raw.bindMemory(to: UInt8.self), isValidUTF8: false)
                return Result { () throws(Violation) in try body(&reader) }
            }.get()
        }

        /// Reads a string's UTF-8 in `body`, as `reading(_:_:)` reads data:
        /// JSON that the engine keeps in a database (``SyncStoredJSON``).
        static func reading<Value>(_ text: String, _ body: (inout Reader) throws(Violation) -> Value) throws(Violation) -> Value {
            var text = text
            return try text.withUTF8 { bytes in
                var reader = Reader(bytes, isValidUTF8: true)
                return Result { () throws(Violation) in try body(&reader) }
            }.get()
        }

        private init(_ bytes: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool) {
            self.bytes = bytes
            self.isValidUTF8 = isValidUTF8
            elementStart = 0
            trail.reserveCapacity(8)
            skipWhitespace()
            elementStart = index
        }

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// The path of the element being read: `$.rows[3].version`.
        var pathText: String {
            var text = "$"
            for step in trail {
                switch step {
                case .key(let key): text += ".\(key.prefix(40))"
                case .index(let index): text += "[\(index)]"
                case .earlierKey: break
                }
            }
            return text
        }

        /// The line and column of the byte at `offset`, both from 1, the
        /// column in characters (Unicode scalars): where a person finds it.
        private func location(of offset: Int) -> Location {
            var line = 1
            var lineStart = 0
            for position in 0..<min(offset, bytes.count) where bytes[position] == UInt8(ascii: "\n") {
                line += 1
                lineStart = position + 1
            }
            // A scalar's first byte is any but a UTF-8 continuation byte.
            let column = 1 + bytes[lineStart..<min(offset, bytes.count)].count { $0 & 0xC0 != 0x80 }
            return Location(line: line, column: column)
        }

        /// The error of the element being read.
        func violation(_ message: String) -> Violation {
            Violation(path: pathText, message, at: location(of: elementStart))
        }

        /// The error of a member that the object just read lacks.
        func missing(_ key: String) -> Violation {
            Violation(path: "\(pathText).\(key)", "missing", at: location(of: elementStart))
        }

        /// The error of text that is not JSON, at the byte where reading
        /// stopped.
        var notJSON: Violation { Violation(path: "$", "not valid JSON", at: location(of: index)) }

        /// Checks that nothing follows the value read.
        func end() throws(Violation) {
            guard current == nil else { throw notJSON }
        }

        private mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        private mutating func expect(_ byte: UInt8) throws(Violation) {
            guard current == byte else { throw notJSON }
            index += 1
            skipWhitespace()
        }

        /// The error of a value that is not of the type expected: `expected
        /// an integer`, or `…, found null`.
        private mutating func mismatch(_ expected: String) throws(Violation) -> Violation {
            switch current {
            case UInt8(ascii: "n"):
                try literal("null")
                return violation("expected \(expected), found null")
            case UInt8(ascii: "t"), UInt8(ascii: "f"):
                // A word that is not `true` or `false` is not JSON.
                _ = try boolean()
                return violation("expected \(expected)")
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), .some(UInt8(ascii: "0")...UInt8(ascii: "9")):
                return violation("expected \(expected)")
            default:
                // No value at all: an empty body, a stray byte.
                return notJSON
            }
        }

        // MARK: - Objects and arrays

        /// Begins an object; read its members with ``nextKey(_:)``.
        mutating func beginObject() throws(Violation) -> Object {
            guard current == UInt8(ascii: "{") else { throw try mismatch("an object") }
            let object = Object(firstStep: trail.count, start: index)
            index += 1
            skipWhitespace()
            return object
        }

        /// The key of the object's next member, whose value is read next,
        /// at the path of that key; nil after the last one. A key met twice
        /// is refused.
        mutating func nextKey(_ object: inout Object) throws(Violation) -> String? {
            if object.hasMembers {
                switch current {
                case UInt8(ascii: ","): index += 1; skipWhitespace()
                case UInt8(ascii: "}"):
                    index += 1
                    skipWhitespace()
                    trail.removeLast(trail.count - object.firstStep)
                    elementStart = object.start
                    return nil
                default: throw notJSON
                }
                // The member read is an earlier one now.
                if case .key(let key) = trail[trail.count - 1] { trail[trail.count - 1] = .earlierKey(key) }
            } else if current == UInt8(ascii: "}") {
                index += 1
                skipWhitespace()
                elementStart = object.start
                return nil
            }
            guard current == UInt8(ascii: "\"") else { throw notJSON }
            elementStart = index
            let key = try string()
            object.hasMembers = true
            trail.append(.key(key))
            for step in object.firstStep..<(trail.count - 1) {
                if case .earlierKey(let earlier) = trail[step], earlier == key { throw violation("appears twice") }
            }
            try expect(UInt8(ascii: ":"))
            return key
        }

        /// Begins an array; read its elements with ``nextElement(_:)``.
        mutating func beginArray() throws(Violation) -> Array {
            guard current == UInt8(ascii: "[") else { throw try mismatch("an array") }
            let array = Array(start: index)
            index += 1
            skipWhitespace()
            return array
        }

        /// The index of the array's next element, which is read next, at
        /// its path; nil after the last one.
        mutating func nextElement(_ array: inout Array) throws(Violation) -> Int? {
            if array.count > 0 {
                switch current {
                case UInt8(ascii: ","): index += 1; skipWhitespace()
                case UInt8(ascii: "]"):
                    index += 1
                    skipWhitespace()
                    trail.removeLast()
                    elementStart = array.start
                    return nil
                default: throw notJSON
                }
                trail[trail.count - 1] = .index(array.count)
            } else if current == UInt8(ascii: "]") {
                index += 1
                skipWhitespace()
                elementStart = array.start
                return nil
            } else {
                trail.append(.index(0))
            }
            elementStart = index
            array.count += 1
            return array.count - 1
        }

        /// Moves to the value that starts at `offset`, a member `key` of the
        /// object being read, and returns where to come back to with
        /// ``resume(_:)``: a member read again after one that decides how
        /// it is read.
        mutating func revisit(_ offset: Int, key: String) -> (index: Int, step: Step, elementStart: Int) {
            let saved = (index, trail[trail.count - 1], elementStart)
            index = offset
            trail[trail.count - 1] = .key(key)
            elementStart = offset
            return saved
        }

        mutating func resume(_ saved: (index: Int, step: Step, elementStart: Int)) {
            index = saved.index
            trail[trail.count - 1] = saved.step
            elementStart = saved.elementStart
        }

        // MARK: - Scalars

        /// A string, its escapes decoded.
        mutating func string() throws(Violation) -> String {
            guard current == UInt8(ascii: "\"") else { throw try mismatch("a string") }
            index += 1
            let start = index
            var isASCII = true
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    let text = isASCII ? String(decoding: slice, as: UTF8.self) : try validUTF8(slice, quotedAt: start - 1)
                    index += 1
                    skipWhitespace()
                    return text
                case UInt8(ascii: "\\"):
                    return try escapedString(from: start)
                case ..<0x20:
                    throw notJSON
                case 0x80...:
                    isASCII = false
                default: break
                }
                index += 1
            }
            throw notJSON
        }

        /// The rest of a string that has escapes, from its first byte.
        private mutating func escapedString(from start: Int) throws(Violation) -> String {
            var text = [UInt8](bytes[start..<index])
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    skipWhitespace()
                    return try validUTF8(text, quotedAt: start - 1)
                case UInt8(ascii: "\\"):
                    guard let escape = current else { throw notJSON }
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"): text.append(contentsOf: String(try escapedScalar()).utf8)
                    default: throw notJSON
                    }
                case ..<0x20:
                    throw notJSON
                default:
                    text.append(byte)
                }
            }
            throw notJSON
        }

        /// The scalar of a `\u` escape, after its `u`: a surrogate pair is
        /// one scalar, a lone surrogate is refused.
        private mutating func escapedScalar() throws(Violation) -> Character {
            let unit = try hexadecimalUnit()
            if let scalar = Unicode.Scalar(unit) { return Character(scalar) }
            guard (0xD800...0xDBFF).contains(unit), current == UInt8(ascii: "\\") else { throw notJSON }
            index += 1
            guard current == UInt8(ascii: "u") else { throw notJSON }
            index += 1
            let low = try hexadecimalUnit()
            guard (0xDC00...0xDFFF).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)) else { throw notJSON }
            return Character(scalar)
        }

        private mutating func hexadecimalUnit() throws(Violation) -> UInt16 {
            guard index + 4 <= bytes.count, let unit = UInt16(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + 4)]), as: UTF8.self), radix: 16),
                  bytes[index..<(index + 4)].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }) else { throw notJSON }
            index += 4
            return unit
        }

        /// The string of a string's bytes, unless they are not UTF-8:
        /// `$: not valid UTF-8`, at the string's opening quote.
        private func validUTF8(_ text: some Collection<UInt8>, quotedAt quote: Int) throws(Violation) -> String {
            if isValidUTF8 { return String(decoding: text, as: UTF8.self) }
            guard let string = String(validating: text, as: UTF8.self) else {
                throw Violation(path: "$", "not valid UTF-8", at: location(of: quote))
            }
            return string
        }

        /// An integer written as one (``StrictJSON``): digits, no fraction,
        /// no exponent, not `-0`.
        mutating func integer() throws(Violation) -> Int64 {
            guard let byte = current, byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw try mismatch("an integer")
            }
            let number = try number()
            guard number.isInteger, !number.isNegativeZero else {
                throw violation("not an integer written as one (digits only, no fraction, exponent or -0)")
            }
            guard let integer = number.integer else { throw violation("not an integer in range") }
            return integer
        }

        /// `true` or `false`.
        mutating func boolean() throws(Violation) -> Bool {
            switch current {
            case UInt8(ascii: "t"): try literal("true"); return true
            case UInt8(ascii: "f"): try literal("false"); return false
            default: throw try mismatch("a boolean")
            }
        }

        /// Reads a `null` if one is next: whether there was one.
        mutating func null() throws(Violation) -> Bool {
            guard current == UInt8(ascii: "n") else { return false }
            try literal("null")
            return true
        }

        /// A value of a row: `null`, a boolean, a string, or any number:
        /// an integer when written as one (digits only, not `-0`) and it
        /// fits 64 bits, otherwise a real. So `100` is an integer, and
        /// `1e2`, `100.0` and `-0` are reals, which an integer column
        /// refuses rather than read a number the sender did not write.
        mutating func scalar() throws(Violation) -> SyncJSONScalar {
            switch current {
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean(try boolean())
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), .some(UInt8(ascii: "0")...UInt8(ascii: "9")):
                let number = try number()
                if !number.isNegativeZero, let integer = number.integer { return .integer(integer) }
                guard let real = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[number.range]), as: UTF8.self)), real.isFinite else {
                    throw violation("a number beyond the range of a 64-bit real")
                }
                return .real(real)
            case UInt8(ascii: "{"), UInt8(ascii: "["): throw violation("expected null, a boolean, a number or a string")
            default: throw notJSON
            }
        }

        /// A number of JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`,
        /// with the integer its digits write, if they are all it has and
        /// it fits 64 bits.
        private mutating func number() throws(Violation) -> Number {
            let start = index
            let isNegative = current == UInt8(ascii: "-")
            if isNegative { index += 1 }
            let digits = index
            // Accumulated negative: -9223372036854775808 fits.
            var negated: Int64 = 0
            var fits = true
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                let (shifted, overflow) = negated.multipliedReportingOverflow(by: 10)
                let (next, overflowAgain) = shifted.subtractingReportingOverflow(Int64(byte &- UInt8(ascii: "0")))
                fits = fits && !overflow && !overflowAgain
                negated = next
                index += 1
            }
            guard index > digits, bytes[digits] != UInt8(ascii: "0") || index - digits == 1 else { throw notJSON }
            let isNegativeZero = isNegative && negated == 0
            var isInteger = true
            if current == UInt8(ascii: ".") {
                index += 1
                guard skipDigits() else { throw notJSON }
                isInteger = false
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { throw notJSON }
                isInteger = false
            }
            let range = start..<index
            skipWhitespace()
            var integer: Int64?
            if isInteger, fits {
                integer = isNegative ? negated : (negated == .min ? nil : -negated)
            }
            return Number(range: range, integer: integer, isInteger: isInteger, isNegativeZero: isNegativeZero)
        }

        /// Skips digits; whether there was one.
        private mutating func skipDigits() -> Bool {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index > start
        }

        private mutating func literal(_ word: StaticString) throws(Violation) {
            let end = index + word.utf8CodeUnitCount
            guard end <= bytes.count, word.withUTF8Buffer({ bytes[index..<end].elementsEqual($0) }) else { throw notJSON }
            index = end
            skipWhitespace()
        }

        // MARK: - Values read later

        /// Skips a value, checking only that it is JSON: a member that is
        /// read later (``revisit(_:key:)``). Nesting does not recurse.
        mutating func skipValue() throws(Violation) {
            var depth = 0
            repeat {
                switch current {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { throw notJSON }
                    depth -= 1
                    index += 1
                case UInt8(ascii: "\""):
                    index += 1
                    while let byte = current, byte != UInt8(ascii: "\"") { index += byte == UInt8(ascii: "\\") ? 2 : 1 }
                    guard current != nil else { throw notJSON }
                    index += 1
                case nil:
                    throw notJSON
                default:
                    index += 1
                }
                skipWhitespace()
            } while depth > 0 || current.map({ $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "}") && $0 != UInt8(ascii: "]") }) == true
        }
    }
}
