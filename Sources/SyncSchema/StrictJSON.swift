import Foundation

/// The rules a message of the protocol follows beyond JSON's grammar,
/// which Foundation's parsers do not check: no object has a key twice
/// (parsers disagree on which one wins), every number is an integer
/// written as one (`100`, never `1e2`, `100.0` or `-0`), and, where the
/// message's shape is known, no key is unknown (a misspelled key is an
/// error, never a field silently dropped). Throws ``Violation`` for the
/// first element that breaks one, by its JSON path. The sync protocol's
/// messages and the declarations of synced tables are both read so.
///
/// ```swift
/// try StrictJSON.check(data, keys: ["$": ["protocolVersion", "changes"]])
/// // $.changes[0].baseversion: unknown key
/// ```
public enum StrictJSON {
    /// The first element that breaks a rule: `$.changes[0].name: appears twice`.
    public struct Violation: Error, Equatable, Sendable, CustomStringConvertible {
        /// The JSON path of the element: `$` for the whole text.
        public var path: String
        /// What is wrong with it.
        public var message: String

        init(path: String, _ message: String) {
            self.path = path
            self.message = message
        }

        public var description: String { "\(path): \(message)" }
    }

    /// Checks `data`, which the caller's parser has found or will find to
    /// be JSON. `keys` gives the keys allowed in the objects at a path,
    /// where array indices are written `[]` (`$.changes[]`); an object at
    /// another path may have any key. The members of the objects at the
    /// paths of `anyNumberIn` may be any JSON number (`1.5`, `2e-3`): the
    /// values of a row, whose `real` columns have fractions.
    public static func check(_ data: Data, keys: [String: Set<String>] = [:], anyNumberIn: Set<String> = []) throws(StrictJSON.Violation) {
        try Reader.reading(data) { reader throws(Violation) in
            try reader.check(shape: Shapes.root, Shapes(keys: keys, anyNumberIn: anyNumberIn))
            try reader.end()
        }
    }

    /// The paths of `keys` and `anyNumberIn` as a tree, so that the scanner
    /// follows a message's shape by numbers, without making a string for
    /// every element: a shape is a node, `$` the root, and a member or an
    /// array's element (`[]`) a child; a path that no rule names is
    /// ``unknown``, as are all below it.
    struct Shapes {
        static let root = 0
        static let unknown = -1
        private var children: [[String: Int]] = [[:]]
        private(set) var allowedKeys: [Set<String>?] = [nil]
        private(set) var anyNumber: [Bool] = [false]

        init(keys: [String: Set<String>], anyNumberIn: Set<String>) {
            for (path, allowed) in keys { allowedKeys[node(path)] = allowed }
            for path in anyNumberIn { anyNumber[node(path)] = true }
        }

        /// The child of `shape` for an object's `key`, or an array's
        /// element (`"[]"`).
        func child(_ shape: Int, _ key: String) -> Int {
            shape == Self.unknown ? Self.unknown : children[shape][key] ?? Self.unknown
        }

        /// The node of a path such as `$.changes[].values`, made if needed.
        private mutating func node(_ path: String) -> Int {
            var node = Self.root
            var rest = Substring(path.dropFirst())
            while !rest.isEmpty {
                let step: String
                if rest.hasPrefix("[]") {
                    step = "[]"
                    rest = rest.dropFirst(2)
                } else {
                    let name = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                    step = String(name)
                    rest = rest.dropFirst(1 + name.count)
                }
                if let next = children[node][step] {
                    node = next
                } else {
                    children.append([:])
                    allowedKeys.append(nil)
                    anyNumber.append(false)
                    children[node][step] = children.count - 1
                    node = children.count - 1
                }
            }
            return node
        }
    }
}
