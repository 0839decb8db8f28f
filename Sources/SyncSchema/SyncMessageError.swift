import Foundation

/// A message of the sync protocol that breaks it (Players' messages, and
/// the engine's), naming the first bad element by its JSON path, such as
/// `$.players[3].uuid: not a UUID`.
///
/// ```swift
/// do {
///     _ = try PlayersPayload.decode(data)
/// } catch {
///     print(error) // $.players[3].uuid: not a UUID
/// }
/// ```
public struct SyncMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON path of the bad element: `$` for the whole message.
    public var path: String
    /// What is wrong with it: `not a UUID`.
    public var message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// A message that breaks a rule of ``StrictJSON``.
    package init(_ violation: StrictJSON.Violation) {
        self.init(path: violation.path, violation.message)
    }

    /// The error of a JSON decoder, with its coding path as a JSON path.
    package init(_ error: DecodingError) {
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

    /// A message of another protocol version than this program reads.
    package static func unsupportedVersion(_ version: Int, reads current: Int) -> SyncMessageError {
        SyncMessageError(path: "$.protocolVersion", "version \(version), and this program reads version \(current) only")
    }

    /// Thrown by a message's decoder that reads its protocol version first
    /// and refuses another one before decoding the rest.
    package struct UnsupportedProtocolVersion: Error {
        package var version: Int

        package init(version: Int) {
            self.version = version
        }
    }

    /// Decodes a message of protocol version `current`, with the error
    /// naming the first bad element by its JSON path; invalid UTF-8 is said
    /// as such, since the decoder refuses it as invalid JSON.
    package static func decoding<Message: Decodable>(_ type: Message.Type, from data: Data, protocolVersion current: Int) throws(SyncMessageError) -> Message {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            if String(validating: data, as: UTF8.self) == nil { throw SyncMessageError(path: "$", "not valid UTF-8") }
            throw SyncMessageError(error)
        } catch let error as UnsupportedProtocolVersion {
            throw unsupportedVersion(error.version, reads: current)
        } catch {
            throw SyncMessageError(path: "$", "invalid")
        }
    }

    /// `$.players[3].uuid` for a coding path.
    package static func path(_ codingPath: [any CodingKey]) -> String {
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
