import Foundation
import Logging
import Synchronization

/// The log of `--log-format json`: one JSON object a line on standard
/// error, `{"timestamp":…,"level":…,"label":…,"message":…}` followed by
/// the metadata as fields of their own (sorted; one named like the four
/// first is left out). Numbers logged as numbers (`status`,
/// `duration_ms`) are JSON numbers. Strings are escaped as JSON requires,
/// and DEL, C1 and the line separators too, so that no logged text can
/// break a line or drive a terminal.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    /// One line at a time: lines of several threads never interleave.
    private static let output = Mutex(())
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let fixedFields: Set<String> = ["timestamp", "level", "label", "message"]

    init(label: String) {
        self.label = label
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let logged = event.metadata { fields.merge(logged) { _, new in new } }
        if let error = event.error, fields["error"] == nil { fields["error"] = .string("\(error)") }
        var line = "{\"timestamp\":\(Self.quoted(Self.timestampStyle.format(Date())))"
        line += ",\"level\":\(Self.quoted(event.level.rawValue))"
        line += ",\"label\":\(Self.quoted(label))"
        line += ",\"message\":\(Self.quoted(event.message.description))"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) where !Self.fixedFields.contains(key) {
            line += ",\(Self.quoted(key)):\(Self.json(value))"
        }
        line += "}\n"
        Self.output.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// A metadata value as JSON: an integer or a finite number logged as
    /// such is a number, anything else a string (or an array, an object).
    static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text):
            return quoted(text)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as any BinaryInteger: return "\(number)"
            case let number as Double where number.isFinite: return "\(number)"
            default: return quoted(convertible.description)
            }
        case .array(let values):
            return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            return "{" + values.sorted(by: { $0.key < $1.key }).map { "\(quoted($0.key)):\(json($0.value))" }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string.
    ///
    /// See <https://www.rfc-editor.org/rfc/rfc8259#section-7>.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
                result += String(format: "\\u%04X", scalar.value)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
