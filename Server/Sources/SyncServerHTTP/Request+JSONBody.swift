import Foundation
import Hummingbird

extension Request {
    /// Whether the request declares a JSON body in UTF-8: the media type
    /// `application/json` itself (in any letter case), with no parameter
    /// but `charset=utf-8`. `application/jsonp` or
    /// `application/json-patch+json` are other types, and JSON exchanged
    /// between systems is UTF-8 (RFC 8259, section 8.1).
    ///
    /// ```
    /// Content-Type: application/json; charset=UTF-8   accepted
    /// Content-Type: application/jsonp                 refused
    /// ```
    var declaresJSONBody: Bool {
        guard let value = headers[.contentType] else { return false }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.first == "application/json" else { return false }
        return parts.dropFirst().allSatisfy { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            return pair.count == 2 && pair[0] == "charset" && (pair[1] == "utf-8" || pair[1] == "\"utf-8\"")
        }
    }
}

extension Data {
    /// Whether these bytes can be JSON text in UTF-8: valid UTF-8 without
    /// a NUL byte, which JSON text never holds raw and which UTF-16 and
    /// UTF-32 put in every ASCII character (Foundation's decoders would
    /// otherwise take such a body for JSON in those encodings).
    var isUTF8JSONText: Bool {
        !contains(0) && String(validating: self, as: UTF8.self) != nil
    }
}
