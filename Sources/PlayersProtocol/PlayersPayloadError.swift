import Foundation

/// A message that breaks the players protocol, naming the first bad
/// element by its JSON path, such as `$.players[3].uuid: not a UUID`.
///
/// ```swift
/// do {
///     _ = try PlayersPayload.decode(data)
/// } catch {
///     print(error) // $.players[3].uuid: not a UUID
/// }
/// ```
public struct PlayersPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON path of the bad element: `$` for the whole message.
    public var path: String
    /// What is wrong with it: `not a UUID`.
    public var message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// The error of a JSON decoder, with its coding path as a JSON path.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: Self.path(context.codingPath), "expected \(Self.name(of: type))")
        case .valueNotFound(let type, let context):
            self.init(path: Self.path(context.codingPath), "expected \(Self.name(of: type)), found null")
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), "missing")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                self.init(path: "$", "not valid JSON")
            } else if context.debugDescription.contains("UUID") {
                self.init(path: Self.path(context.codingPath), "not a UUID")
            } else if context.debugDescription.contains("does not fit") {
                self.init(path: Self.path(context.codingPath), "not an integer in range")
            } else if context.debugDescription.contains("Cannot initialize") {
                self.init(path: Self.path(context.codingPath), "not one of the values this program knows")
            } else {
                self.init(path: Self.path(context.codingPath), "invalid")
            }
        @unknown default:
            self.init(path: "$", "invalid")
        }
    }

    public var description: String { "\(path): \(message)" }

    /// `$.players[3].uuid` for a coding path.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return "\(path)[\(index)]" }
            return "\(path).\(key.stringValue)"
        }
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type: return "an integer"
        case is Bool.Type: return "a boolean"
        case is UUID.Type: return "a UUID string"
        default:
            let text = "\(type)"
            if text.hasPrefix("Array") { return "an array" }
            if text.hasPrefix("Dictionary") { return "an object" }
            return "a value of type \(text)"
        }
    }
}
