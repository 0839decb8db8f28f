import Foundation

/// A payload that breaks the sync protocol: its description names the
/// first bad element by page and JSON path, such as
/// `page 2, $.players[3].uuid: not a UUID`. Nothing was written.
public struct SyncPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The page, from 1, when known.
    public var page: Int?
    /// The JSON path of the bad element: `$` for the whole message.
    public var path: String
    public var message: String

    public init(page: Int? = nil, path: String, _ message: String) {
        self.page = page
        self.path = path
        self.message = message
    }

    /// The error of a JSON decoder, with its coding path as a JSON path.
    public init(_ error: DecodingError) {
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

    /// The same error, on a page.
    public func on(page: Int) -> SyncPayloadError {
        var error = self
        error.page = page
        return error
    }

    public var description: String {
        let location = page.map { "page \($0), \(path)" } ?? path
        return "the server sent an invalid payload (\(location): \(message)): nothing was written; check that the URL is a players server of protocol version 1"
    }

    /// `$.players[3].uuid` for a coding path.
    public static func path(_ codingPath: [any CodingKey]) -> String {
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
