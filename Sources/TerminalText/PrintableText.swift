import Foundation

/// Text from a server or a database made safe to print on a terminal and
/// to log: every control character (C0, DEL, C1: newlines and the escape
/// that starts terminal sequences included), the line and paragraph
/// separators (which end a line) and every bidirectional mark, embedding,
/// override or isolate (which reorders the rest of the line) becomes
/// `\u001B`, so that the text stays on one line, shows as it is, and
/// cannot drive the terminal.
///
/// ```swift
/// PrintableText.escaping("Arthur\u{1B}[2J") // "Arthur\\u001B[2J"
/// ```
public enum PrintableText {
    /// Writes `line`, its control characters escaped, and a newline to
    /// `handle` at once (unbuffered): a line of a command line's output,
    /// which a reader of `sync --watch` follows as it comes.
    ///
    /// ```swift
    /// PrintableText.writeLine("Synced with \(url): \(report).", to: .standardOutput)
    /// ```
    public static func writeLine(_ line: String, to handle: FileHandle) {
        handle.write(Data((escaping(line) + "\n").utf8))
    }

    /// The text, with its control characters escaped.
    public static func escaping(_ text: String) -> String {
        // Most text has none: return it without copying.
        guard text.unicodeScalars.contains(where: needsEscaping) else { return text }
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscaping(scalar) {
                escaped.append(contentsOf: "\\u\(hex(scalar.value))".unicodeScalars)
            } else {
                escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// C0 (U+0000 to U+001F), DEL (U+007F), C1 (U+0080 to U+009F), the
    /// line and paragraph separators (U+2028, U+2029), a bidirectional mark
    /// (U+061C, U+200E, U+200F), embedding, override (U+202A to U+202E) or
    /// isolate (U+2066 to U+2069).
    static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F...0x9F).contains(value)
            || value == 0x061C || value == 0x200E || value == 0x200F
            || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }

    /// Four uppercase hexadecimal digits: `001B`.
    public static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
