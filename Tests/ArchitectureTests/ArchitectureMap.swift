import Foundation
import TestSupport

/// One arrow of the map, `from --> to`: the target `from` imports `to`, a
/// target or an outside package.
struct MapEdge: Hashable, Sendable, CustomStringConvertible {
    let from: String
    let to: String

    init(_ from: String, _ to: String) {
        (self.from, self.to) = (from, to)
    }

    var description: String { "\(from) --> \(to)" }
}

/// Which Mermaid block of the map draws a target: each package has one
/// for its modules and one for its tests (test targets, and targets whose
/// sources are under `Tests/`, such as TestSupport). A block says which it
/// is on a line `%% map: <package> modules` or `%% map: <package> tests`.
struct MapBlockKey: Hashable, Sendable, CustomStringConvertible {
    /// The two blocks of a package.
    enum Part: String, Sendable {
        case modules, tests
    }

    let package: String
    let part: Part

    var description: String { "\(package) \(part.rawValue)" }
}

/// What one block must draw, by the manifests: its own targets, and the
/// arrows out of them. The other ends of those arrows (targets of other
/// blocks, outside packages) are drawn too, as the arrows' nodes.
struct ExpectedBlock: Equatable, Sendable {
    var targets: Set<String> = []
    var edges: Set<MapEdge> = []
}

/// What one block draws: every node it names, and its arrows.
struct DrawnBlock: Sendable {
    var nodes: Set<String> = []
    var edges: Set<MapEdge> = []
}

/// One way in which the map and the manifests disagree.
enum MapDiscrepancy: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The manifests have targets for a block that the map does not have.
    case missingBlock(MapBlockKey)
    /// The map has a block for a package or part without targets.
    case unknownBlock(MapBlockKey)
    /// A target of the block is not drawn in it.
    case missingTarget(MapBlockKey, String)
    /// A node that is neither a target of the block nor what one imports.
    case unknownNode(MapBlockKey, String)
    /// An import of the manifests that the block does not draw.
    case missingEdge(MapBlockKey, MapEdge)
    /// An arrow that no manifest has.
    case unknownEdge(MapBlockKey, MapEdge)

    var description: String {
        switch self {
        case let .missingBlock(key):
            "no Mermaid block has the line `%% map: \(key)`"
        case let .unknownBlock(key):
            "the block `%% map: \(key)` draws no package's targets"
        case let .missingTarget(key, target):
            "[\(key)] the target \(target) is not drawn"
        case let .unknownNode(key, node):
            "[\(key)] \(node) is drawn, but it is neither a target of this block nor imported by one"
        case let .missingEdge(key, edge):
            "[\(key)] \(edge) is in the manifest, but not drawn"
        case let .unknownEdge(key, edge):
            "[\(key)] \(edge) is drawn, but the manifests have no such import"
        }
    }

    static func < (left: MapDiscrepancy, right: MapDiscrepancy) -> Bool {
        left.description < right.description
    }
}

/// The parts of `swift package dump-package`'s JSON that the map draws.
struct PackageManifest: Decodable, Sendable {
    /// A product: the targets that depending on it brings.
    struct Product: Decodable, Sendable {
        let name: String
        let targets: [String]
    }

    /// A target: its kind (`regular`, `executable`, `test`, `system`, …),
    /// its folder when the manifest names one, and what it imports.
    struct Target: Decodable, Sendable {
        let name: String
        let type: String
        let path: String?
        let dependencies: [Dependency]

        /// Whether the target belongs to the tests' block: a test target,
        /// or one whose sources are under Tests/ (the tests' helpers).
        var isTestCode: Bool {
            type == "test" || path?.hasPrefix("Tests/") == true
        }
    }

    /// A dependency of a target, from dump-package's three forms:
    /// `{"byName": [name, condition]}` (a plain string in the manifest)
    /// and `{"target": [name, condition]}` are a target, `{"product":
    /// [name, package, moduleAliases, condition]}` a product.
    enum Dependency: Decodable, Sendable {
        case target(String)
        case product(name: String, package: String?)

        private enum Form: String, CodingKey {
            case byName, target, product
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Form.self)
            guard let form = container.allKeys.first else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "a dependency of no known form"))
            }
            var fields = try container.nestedUnkeyedContainer(forKey: form)
            let name = try fields.decode(String.self)
            switch form {
            case .byName, .target: self = .target(name)
            case .product: self = .product(name: name, package: try fields.decode(String?.self))
            }
        }
    }

    let name: String
    let products: [Product]
    let targets: [Target]
}

/// The blocks that the manifests ask for, with their targets and arrows.
///
/// A dependency on a target is an arrow to it. A dependency on a product
/// of one of `manifests` (the server's on CipherDB's) is an arrow to each
/// target of that product. A dependency on a product of any other package
/// is one arrow to that package, named as the manifest names it in
/// `.product(name:package:)` (`swift-nio`), whichever of its products.
func expectedBlocks(of manifests: [PackageManifest]) throws -> [MapBlockKey: ExpectedBlock] {
    let packages = Dictionary(manifests.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var blocks: [MapBlockKey: ExpectedBlock] = [:]
    for manifest in manifests {
        let targetNames = Set(manifest.targets.map(\.name))
        for target in manifest.targets {
            let key = MapBlockKey(package: manifest.name, part: target.isTestCode ? .tests : .modules)
            blocks[key, default: ExpectedBlock()].targets.insert(target.name)
            for dependency in target.dependencies {
                for imported in try importedNodes(dependency, of: target.name, in: manifest.name,
                                                  targets: targetNames, packages: packages) {
                    blocks[key, default: ExpectedBlock()].edges.insert(MapEdge(target.name, imported))
                }
            }
        }
    }
    return blocks
}

/// The nodes that one dependency of `target` is drawn as: a target of
/// its own package, the targets of a product of one of `packages`, or an
/// outside package.
private func importedNodes(_ dependency: PackageManifest.Dependency, of target: String, in package: String,
                           targets: Set<String>, packages: [String: PackageManifest]) throws -> [String] {
    switch dependency {
    case let .target(name):
        // A product by name alone would need the dependencies resolved to
        // know its package: the manifests name every product's package.
        guard targets.contains(name) else {
            throw TestFailure("\(package)'s target \(target) depends on \(name), which is no target of \(package): "
                + "name a product's package with .product(name:package:)")
        }
        return [name]
    case let .product(name, productPackage?):
        guard let local = packages[productPackage] else { return [productPackage] }
        guard let product = local.products.first(where: { $0.name == name }) else {
            throw TestFailure("\(package)'s target \(target) depends on \(productPackage)'s product \(name), "
                + "which \(productPackage)'s manifest does not have")
        }
        return product.targets
    case let .product(name, nil):
        throw TestFailure("\(package)'s target \(target) depends on the product \(name) without naming its package")
    }
}

/// Every disagreement between the blocks that the manifests ask for and
/// those drawn, sorted.
func discrepancies(expected: [MapBlockKey: ExpectedBlock], drawn: [MapBlockKey: DrawnBlock]) -> [MapDiscrepancy] {
    var found: [MapDiscrepancy] = []
    for key in Set(drawn.keys).subtracting(expected.keys) {
        found.append(.unknownBlock(key))
    }
    for (key, block) in expected {
        guard let map = drawn[key] else {
            found.append(.missingBlock(key))
            continue
        }
        // The arrows' other ends (another block's targets, outside
        // packages) are nodes of the block too.
        let allowedNodes = block.targets.union(block.edges.flatMap { [$0.from, $0.to] })
        found += block.targets.subtracting(map.nodes).map { .missingTarget(key, $0) }
        found += map.nodes.subtracting(allowedNodes).map { .unknownNode(key, $0) }
        found += block.edges.subtracting(map.edges).map { .missingEdge(key, $0) }
        found += map.edges.subtracting(block.edges).map { .unknownEdge(key, $0) }
    }
    return found.sorted()
}

/// The Mermaid blocks of a Markdown text (between a line ```mermaid and
/// a line ```), by the key of their `%% map:` line. Every Mermaid block must have one,
/// and be written in the few forms that ``readStatement(_:)`` reads, so
/// that nothing drawn escapes the check.
func drawnBlocks(inMarkdown text: String) throws -> [MapBlockKey: DrawnBlock] {
    var blocks: [MapBlockKey: DrawnBlock] = [:]
    var current: (start: Int, key: MapBlockKey?, block: DrawnBlock, sawFlowchart: Bool)?
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let number = index + 1
        let statement = line.trimmingCharacters(in: .whitespaces)
        guard var block = current else {
            if statement == "```mermaid" { current = (number, nil, DrawnBlock(), false) }
            continue
        }
        func fail(_ reason: String) -> TestFailure {
            TestFailure("line \(number), `\(statement)`: \(reason)")
        }
        if statement == "```" {
            guard let key = block.key else {
                throw TestFailure("the Mermaid block of line \(block.start) has no line `%% map: <package> modules|tests`")
            }
            guard blocks[key] == nil else { throw fail("a second block `%% map: \(key)`") }
            blocks[key] = block.block
            current = nil
            continue
        }
        if statement.isEmpty {
            continue
        } else if !block.sawFlowchart {
            let words = statement.split(separator: " ")
            guard words.count == 2, ["flowchart", "graph"].contains(words[0]) else {
                throw fail("a map's block starts with `flowchart TD` (or another direction)")
            }
            block.sawFlowchart = true
        } else if statement.hasPrefix("%% map:") {
            guard block.key == nil else { throw fail("a block has one `%% map:` line") }
            do {
                block.key = try mapKey(statement.dropFirst("%% map:".count))
            } catch {
                throw fail(error.description)
            }
        } else if statement.hasPrefix("%%") || statement == "end" || statement.hasPrefix("subgraph ") {
            // Comments, and the frames that group nodes for the reader:
            // a frame is not a module.
        } else {
            let read: DrawnBlock
            do {
                read = try readStatement(statement[...])
            } catch {
                throw fail(error.description)
            }
            block.block.nodes.formUnion(read.nodes)
            block.block.edges.formUnion(read.edges)
        }
        current = block
    }
    if let current { throw TestFailure("the Mermaid block of line \(current.start) has no closing ```") }
    return blocks
}

/// The key of a `%% map:` line's rest: a package's name, then `modules`
/// or `tests`.
private func mapKey(_ text: Substring) throws(TestFailure) -> MapBlockKey {
    let words = text.split(separator: " ")
    guard words.count == 2, let part = MapBlockKey.Part(rawValue: String(words[1])) else {
        throw TestFailure("write `%% map: <package> modules` or `%% map: <package> tests`")
    }
    return MapBlockKey(package: String(words[0]), part: part)
}

/// The nodes and arrows of one Mermaid statement: a node (`A`, or `A`
/// with a shape and label: `A[label]`, `a[(label)]`, `A(["label"])`), or
/// arrows between groups of nodes: `A --> B & C --> D` draws A to B and C,
/// and B and C to D. Any other statement (another kind of link, a label
/// on an arrow, a style) is refused with the reason.
func readStatement(_ statement: Substring) throws(TestFailure) -> DrawnBlock {
    var rest = statement
    var groups: [[String]] = [[]]
    while true {
        rest = rest.drop { $0 == " " }
        groups[groups.count - 1].append(try readNode(&rest))
        rest = rest.drop { $0 == " " }
        if rest.isEmpty { break }
        if rest.hasPrefix("&") {
            rest.removeFirst()
        } else if rest.hasPrefix("-->") {
            rest.removeFirst(3)
            groups.append([])
        } else {
            throw TestFailure("expected `-->`, `&` or the line's end before `\(rest)` (the map draws only `A --> B`)")
        }
    }
    var drawn = DrawnBlock(nodes: Set(groups.joined()))
    for (importers, imported) in zip(groups, groups.dropFirst()) {
        for from in importers {
            drawn.edges.formUnion(imported.map { MapEdge(from, $0) })
        }
    }
    return drawn
}

/// Reads a node's id from the start of `text`, and its shape and label if
/// any: letters, digits, `_`, and `-` where it starts no arrow
/// (`swift-nio`), as Mermaid reads an id.
private func readNode(_ text: inout Substring) throws(TestFailure) -> String {
    var id = ""
    while let character = text.first {
        let next = text.dropFirst().first
        guard character.isLetter || character.isNumber || character == "_"
            || (character == "-" && next != "-" && next != ">") else { break }
        id.append(character)
        text.removeFirst()
    }
    guard !id.isEmpty else { throw TestFailure("expected a node's id before `\(text)`") }
    guard let opening = text.first, "[({".contains(opening) else { return id }
    // The shape's brackets, nested (`[(`, `([`, `[[`, `{{`), and the
    // label's quoted text, which may hold brackets.
    var depth = 0
    var quoted = false
    while let character = text.popFirst() {
        if character == "\"" {
            quoted.toggle()
        } else if !quoted && "[({".contains(character) {
            depth += 1
        } else if !quoted && "])}".contains(character) {
            depth -= 1
            if depth == 0 { return id }
        }
    }
    throw TestFailure("the shape of \(id) has no closing bracket")
}

/// The modules that the table after the line that starts with `heading`
/// lists: the code spans of its first column, row by row (a cell may name
/// several), but for those between parentheses: `` `NotesCLI` (`notes`) ``
/// names the module NotesCLI, and its command.
func tableModules(inMarkdown text: String, after heading: String) throws -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else {
        throw TestFailure("no line starts with \"\(heading)\"")
    }
    let rows = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
    // The header and the line under it name no module.
    return rows.dropFirst(2).flatMap { row -> [String] in
        let firstCell = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().first ?? ""
        var outsideParentheses = ""
        var depth = 0
        for character in firstCell {
            if character == "(" { depth += 1 }
            if depth == 0 { outsideParentheses.append(character) }
            if character == ")" { depth -= 1 }
        }
        // Between backquotes: every other piece, starting from the second.
        return outsideParentheses.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
