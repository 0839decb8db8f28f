import Foundation

/// The commands of a `console` block of the project's documentation, as a
/// reader would type them: the test that runs them reads them from the
/// page, so that the page and the test cannot drift apart.
public enum DocumentedCommands {
    /// The `$ ` lines (without the prompt) of the `index`th `console` block
    /// after the line `heading` of `page` (a path from the package root).
    public static func commands(in page: String, after heading: String, block index: Int = 0) throws -> [String] {
        let text = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent(page), encoding: .utf8)
        guard let section = text.range(of: "\n\(heading)\n").map({ text[$0.upperBound...] }) else {
            throw TestFailure("\(page) has no heading '\(heading)'.")
        }
        let blocks = section.components(separatedBy: "```console\n").dropFirst()
        guard index < blocks.count else { throw TestFailure("\(page) has no console block \(index) after '\(heading)'.") }
        let block = blocks[blocks.startIndex + index].components(separatedBy: "\n```")[0]
        return block.split(separator: "\n").filter { $0.hasPrefix("$ ") }.map { String($0.dropFirst(2)) }
    }
}
