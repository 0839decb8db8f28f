/// An error of a file operation: one sentence, safe to show.
public struct DatabaseFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
    /// Whether the key given does not open a file (exit code 3 of `players`).
    public let isWrongKey: Bool

    public init(_ description: String, isWrongKey: Bool = false) {
        self.description = description
        self.isWrongKey = isWrongKey
    }
}
