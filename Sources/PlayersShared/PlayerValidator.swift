import Foundation
import SyncSchema

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
    public static let maximumNameLength = PlayersSchema.name.maximumLength!

    /// The longest name in UTF-8 bytes: a character may hold any number
    /// of combining marks, so characters alone do not bound a name's size.
    public static let maximumNameBytes = PlayersSchema.name.maximumBytes!

    /// The scores accepted.
    public static let scoreRange: ClosedRange<Int> = Int(PlayersSchema.score.minimum!)...Int(PlayersSchema.score.maximum!)

    /// The name as stored (without surrounding white space), or the rule
    /// it breaks: ``PlayersSchema/name``'s rules.
    public static func validName(_ name: String) throws(PlayerValidationError) -> String {
        let stored: SyncValue
        do {
            stored = try PlayersSchema.name.validated(.text(name))
        } catch {
            switch error.problem {
            case .missing, .empty: throw .emptyName
            case .tooLong: throw .nameTooLong
            case .controlCharacter(let scalar): throw .controlCharacter(scalar)
            case .wrongType, .outOfRange, .notFinite: throw .nameNotText
            }
        }
        guard case .text(let text) = stored else { throw .nameNotText }
        return text
    }

    /// Checks a score: ``PlayersSchema/score``'s rules.
    public static func validateScore(_ score: Int) throws(PlayerValidationError) {
        do {
            _ = try PlayersSchema.score.validated(.integer(Int64(score)))
        } catch {
            throw .scoreOutOfRange(score)
        }
    }

    /// Checks a name and a score; returns the name as stored.
    public static func validPlayer(name: String, score: Int) throws(PlayerValidationError) -> String {
        let name = try validName(name)
        try validateScore(score)
        return name
    }
}
