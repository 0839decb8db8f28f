/// An error of a file operation: one sentence, safe to show.
public struct DatabaseFileError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) { self.description = description }
}
