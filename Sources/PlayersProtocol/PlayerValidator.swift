import Foundation

/// The one rule for the names and scores that enter a players database:
/// the command line, the server's input and the sync payload decoder all
/// call it.
///
/// A name, as given (surrounding white space included), has at most
/// ``maximumNameLength`` characters and ``maximumNameBytes`` UTF-8 bytes,
/// no control character (C0, DEL or C1: newlines and terminal escapes
/// included), and is not empty once trimmed. A score is in ``scoreRange``.
/// Invalid UTF-8 never gets this far: it is refused where bytes become
/// text (the JSON decoders, the command line's arguments).
///
/// ```swift
/// let name = try PlayerValidator.validName(" Arthur ") // "Arthur"
/// try PlayerValidator.validateScore(42)
/// ```
public enum PlayerValidator {
    /// The longest name, in characters.
    public static let maximumNameLength = 100

    /// The longest name in UTF-8 bytes: a character may hold any number
    /// of combining marks, so characters alone do not bound a name's size.
    public static let maximumNameBytes = 400

    /// The scores accepted.
    public static let scoreRange: ClosedRange<Int> = 0...1_000_000_000

    /// The name as stored (without surrounding white space), or the rule
    /// it breaks.
    public static func validName(_ name: String) throws(PlayerValidationError) -> String {
        // Bytes first: it costs nothing, and bounds the work that follows.
        let bytes = name.utf8.count
        guard bytes <= maximumNameBytes else { throw .nameTooLong }
        if let scalar = firstControlCharacter(name) { throw .controlCharacter(scalar) }
        // No more bytes than the limit: no more characters either.
        guard bytes <= maximumNameLength || name.count <= maximumNameLength else { throw .nameTooLong }
        let trimmed = normalizedName(name)
        guard !trimmed.isEmpty else { throw .emptyName }
        return trimmed
    }

    /// Checks a score.
    public static func validateScore(_ score: Int) throws(PlayerValidationError) {
        guard scoreRange.contains(score) else { throw .scoreOutOfRange(score) }
    }

    /// Checks a name and a score; returns the name as stored.
    public static func validPlayer(name: String, score: Int) throws(PlayerValidationError) -> String {
        let name = try validName(name)
        try validateScore(score)
        return name
    }

    /// A name without surrounding white space.
    static func normalizedName(_ name: String) -> String {
        // Most names need no trimming: checking both ends is much cheaper
        // than trimming (a sync checks every name it receives).
        let whiteSpace = CharacterSet.whitespacesAndNewlines
        if let first = name.unicodeScalars.first, let last = name.unicodeScalars.last,
           !whiteSpace.contains(first), !whiteSpace.contains(last) {
            return name
        }
        return name.trimmingCharacters(in: whiteSpace)
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
