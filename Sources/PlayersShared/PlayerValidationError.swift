import Foundation

/// A name or score that ``PlayerValidator`` refuses. Its parts compose the
/// messages of the command line, the server and the sync payload decoder:
/// ``problem`` says what is wrong, ``rule`` what is accepted.
public enum PlayerValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Empty, or only white space.
    case emptyName
    /// More than ``PlayerValidator/maximumNameLength`` characters or
    /// ``PlayerValidator/maximumNameBytes`` UTF-8 bytes.
    case nameTooLong
    /// A C0, DEL or C1 control character.
    case controlCharacter(Unicode.Scalar)
    /// A name that is not UTF-8 text, as a database made elsewhere may hold.
    case nameNotText
    /// Outside ``PlayerValidator/scoreRange``.
    case scoreOutOfRange(Int)
    /// A score that is not an integer, as a database made elsewhere may hold.
    case scoreNotInteger

    /// `name` or `score`.
    public var field: String {
        switch self {
        case .emptyName, .nameTooLong, .controlCharacter, .nameNotText: return "name"
        case .scoreOutOfRange, .scoreNotInteger: return "score"
        }
    }

    /// What is wrong, after the field's name: "is empty".
    public var problem: String {
        switch self {
        case .emptyName:
            return "is empty"
        case .nameTooLong:
            return "is longer than \(PlayerValidator.maximumNameLength) characters or \(PlayerValidator.maximumNameBytes) UTF-8 bytes"
        case .controlCharacter(let scalar):
            return "contains a control character (U+\(String(format: "%04X", scalar.value)))"
        case .nameNotText:
            return "is not UTF-8 text"
        case .scoreOutOfRange(let score):
            return "is \(score), outside \(PlayerValidator.scoreRange.lowerBound)…\(PlayerValidator.scoreRange.upperBound)"
        case .scoreNotInteger:
            return "is not an integer"
        }
    }

    /// What the field accepts, after "must be".
    public var rule: String {
        switch self {
        case .emptyName, .nameTooLong, .controlCharacter, .nameNotText: return Self.nameRule
        case .scoreOutOfRange, .scoreNotInteger: return Self.scoreRule
        }
    }

    /// What a name must be, after "must be".
    public static let nameRule = PlayersSchema.name.rule

    /// What a score must be, after "must be".
    public static let scoreRule = PlayersSchema.score.rule

    /// "the name is empty: it must be …".
    public var description: String {
        "the \(field) \(problem): it must be \(rule)"
    }
}
