/// A value that a column's rules refuse: which column, what is wrong
/// (``Problem``, for callers that tell them apart), and the sentence that
/// the command line, the server and the sync decoder all print.
///
/// ```swift
/// // the name is empty: it must be a string of 1 to 100 characters and at most 400 UTF-8 bytes, without control characters
/// ```
public struct SyncValueError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// No value in a required column.
        case missing
        /// Required text that is empty (once trimmed, in a trimmed column).
        case empty
        /// More characters or UTF-8 bytes than the column's maximum.
        case tooLong
        /// A C0, DEL or C1 control character.
        case controlCharacter(Unicode.Scalar)
        /// A value of another type than the column's.
        case wrongType
        /// An integer outside the column's bounds.
        case outOfRange(Int64)
        /// An infinite or NaN real.
        case notFinite
    }

    /// The column's name.
    public let column: String
    public let problem: Problem
    /// What is wrong, after the column's name: "is empty".
    public let explanation: String
    /// What the column accepts, after "must be".
    public let rule: String

    public var description: String {
        "the \(column) \(explanation): it must be \(rule)"
    }
}
