import Foundation

/// The rules that the engine's JSON follows beyond JSON's grammar, which
/// Foundation's parsers do not check: no object has a key twice (parsers
/// disagree on which one wins), every number is an integer written as one
/// (`100`, never `1e2`, `100.0` or `-0`) unless it is a `real` column's
/// value, and, where the shape is known, no key is unknown (a misspelled
/// key is an error, never a field silently dropped). One reader applies
/// them (``Reader``), to the sync protocol's messages, the declarations of
/// synced tables and the rows a server stores, and throws ``Violation``
/// for the first element that breaks one, by its JSON path.
public enum StrictJSON {
    /// The first element that breaks a rule: `$.changes[0].name: appears twice`.
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        /// The JSON path of the element: `$` for the whole text.
        public var path: String
        /// What is wrong with it.
        public var message: String
        /// Where the element begins in the text, when the reader met it
        /// there (a rule of the protocol found after reading has none).
        public var location: Location?

        init(path: String, _ message: String, at location: Location? = nil) {
            self.path = path
            self.message = message
            self.location = location
        }

        public var description: String { "\(path): \(message)" }
    }

    /// A place in a text, for a person to find it: a line and a column in
    /// characters, both from 1.
    public struct Location: Equatable, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        public var description: String { "line \(line), column \(column)" }
    }
}
