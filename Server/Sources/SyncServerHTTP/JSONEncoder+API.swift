import Foundation

extension JSONEncoder {
    /// The encoder of API bodies: sorted keys, no escaped slashes.
    static var api: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
