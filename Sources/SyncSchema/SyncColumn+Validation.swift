import Foundation

extension SyncColumn {
    /// The value as stored (trimmed text, for a trimmed column), or the
    /// rule it breaks. The one check of a value, wherever it enters: the
    /// app, the server's input, the sync decoder.
    public func validated(_ value: SyncValue) throws(SyncValueError) -> SyncValue {
        switch (type, value) {
        case (_, .null):
            if isRequired { throw error(.missing, "is missing") }
            return .null
        case (.text, .text(let text)):
            return .text(try validatedText(text))
        case (.integer, .integer(let integer)):
            if let minimum, integer < minimum { throw outOfRange(integer) }
            if let maximum, integer > maximum { throw outOfRange(integer) }
            return value
        case (.real, .real(let real)):
            guard real.isFinite else { throw error(.notFinite, "is not a finite number") }
            // -0.0 is 0, as SQLite stores it and a store reads it back: one
            // value, one hash, on every side.
            return real == 0 ? .real(0) : value
        case (.uuid, .uuid), (.boolean, .boolean):
            return value
        default:
            throw error(.wrongType, "is not \(Self.article(type))")
        }
    }

    /// The check of a value that a store wrote after ``validated(_:)``
    /// (a server's stored row, read again): its type, and a value for a
    /// required column; the rules of text and ranges held when it was
    /// written, and a server reads every row of every page.
    public func typeChecked(_ value: SyncValue) throws(SyncValueError) -> SyncValue {
        switch (type, value) {
        case (_, .null):
            if isRequired { throw error(.missing, "is missing") }
            return .null
        case (.text, .text), (.integer, .integer), (.real, .real), (.uuid, .uuid), (.boolean, .boolean):
            return value
        default:
            throw error(.wrongType, "is not \(Self.article(type))")
        }
    }

    /// What the column accepts, after "must be".
    public var rule: String {
        switch type {
        case .uuid: return "a UUID"
        case .boolean: return "true or false"
        case .real: return "a finite number"
        case .integer:
            switch (minimum, maximum) {
            case let (minimum?, maximum?): return "an integer from \(minimum) to \(maximum)"
            case let (minimum?, nil): return "an integer of at least \(minimum)"
            case let (nil, maximum?): return "an integer of at most \(maximum)"
            case (nil, nil): return "an integer"
            }
        case .text:
            let length = maximumLength ?? 0
            var rule = isRequired ? "a string of 1 to \(length) characters" : "a string of at most \(length) characters"
            if let maximumBytes { rule += " and at most \(maximumBytes) UTF-8 bytes" }
            if !allowsControlCharacters { rule += ", without control characters" }
            return rule
        }
    }

    private func validatedText(_ text: String) throws(SyncValueError) -> String {
        let length = maximumLength ?? 0
        let bytes = text.utf8.count
        // Bytes first: it costs nothing, and bounds the work that follows.
        if let maximumBytes, bytes > maximumBytes { throw tooLong() }
        if !allowsControlCharacters, let scalar = Self.firstControlCharacter(text) {
            throw error(.controlCharacter(scalar), "contains a control character (U+\(String(format: "%04X", scalar.value)))")
        }
        // No more bytes than the limit: no more characters either.
        guard bytes <= length || text.count <= length else { throw tooLong() }
        let stored = isTrimmed ? Self.trimmed(text) : text
        if isRequired, stored.isEmpty { throw error(.empty, "is empty") }
        return stored
    }

    private func tooLong() -> SyncValueError {
        let length = maximumLength ?? 0
        let bytes = maximumBytes.map { " or \($0) UTF-8 bytes" } ?? ""
        return error(.tooLong, "is longer than \(length) characters\(bytes)")
    }

    private func outOfRange(_ integer: Int64) -> SyncValueError {
        let bounds = "\(minimum.map(String.init) ?? "")…\(maximum.map(String.init) ?? "")"
        return error(.outOfRange(integer), "is \(integer), outside \(bounds)")
    }

    private func error(_ problem: SyncValueError.Problem, _ explanation: String) -> SyncValueError {
        SyncValueError(column: name, problem: problem, explanation: explanation, rule: rule)
    }

    private static func article(_ type: SyncColumnType) -> String {
        switch type {
        case .uuid: return "a UUID"
        case .text: return "text"
        case .integer: return "an integer"
        case .real: return "a number"
        case .boolean: return "true or false"
        }
    }

    /// Text without surrounding white space.
    static func trimmed(_ text: String) -> String {
        // Most text needs no trimming: checking both ends is much cheaper
        // than trimming (a sync checks every value it receives).
        let whiteSpace = CharacterSet.whitespacesAndNewlines
        if let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
           !whiteSpace.contains(first), !whiteSpace.contains(last) {
            return text
        }
        return text.trimmingCharacters(in: whiteSpace)
    }

    /// The first C0 (U+0000 to U+001F), DEL (U+007F) or C1 (U+0080 to
    /// U+009F) character, read from the UTF-8 bytes: C0 and DEL are one
    /// byte, C1 is 0xC2 followed by 0x80 to 0x9F.
    static func firstControlCharacter(_ text: String) -> Unicode.Scalar? {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F { return Unicode.Scalar(byte) }
            if previous == 0xC2, byte < 0xA0, byte >= 0x80 { return Unicode.Scalar(byte) }
            previous = byte
        }
        return nil
    }
}
