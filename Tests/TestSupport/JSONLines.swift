import Foundation

/// The objects of JSON Lines output (`players list --json`): one JSON
/// object per line, each line ended by a newline. Throws when a line is
/// not one JSON object, or the last one is not ended.
public func jsonLines(_ text: String) throws -> [[String: Any]] {
    guard text.isEmpty || text.hasSuffix("\n") else { throw TestFailure("JSON Lines end with a newline: \(text.suffix(80))") }
    return try text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestFailure("not a JSON object on one line: \(line)")
        }
        return object
    }
}
