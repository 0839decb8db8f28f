import Foundation
import Testing
import TestSupport

/// Docs/Architecture.md's module map against both packages' manifests, as
/// SwiftPM reads them: every target drawn, every import an arrow, and
/// nothing else; then the same checks on small examples, so that each can
/// be seen to fail.
@Suite struct ArchitectureMapTests {
    /// Both manifests, read once per test process.
    static let manifests = Task { () async throws -> [PackageManifest] in
        [try await dumpPackage(at: BuiltProducts.packageRoot),
         try await dumpPackage(at: BuiltProducts.serverPackageRoot)]
    }

    /// The manifest of the package at `root`, as `swift package
    /// dump-package` prints it: the manifest evaluated, no dependency
    /// resolved (half a second a package).
    static func dumpPackage(at root: URL) async throws -> PackageManifest {
        // A scratch folder of its own: dump-package would otherwise wait
        // for the lock of the package's .build, which `swift test` holds
        // while this test runs. SwiftPM also leaves a folder in TMPDIR.
        let scratch = try TemporaryFolder()
        let arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path]) { $1 }
        let result = try await run("/usr/bin/env", arguments, environment: environment)
        guard result.status == 0 else {
            throw TestFailure("\(arguments.joined(separator: " ")) failed (\(result.status)): \(result.error)")
        }
        return try JSONDecoder().decode(PackageManifest.self, from: Data(result.output.utf8))
    }

    /// The document that holds the map.
    static func architectureDoc() throws -> String {
        try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Architecture.md"), encoding: .utf8)
    }

    /// Records one issue that names every way, of the kinds that `kind`
    /// selects, in which the map differs from the manifests.
    static func expectNoDiscrepancy(_ kind: (MapDiscrepancy) -> Bool,
                                    sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let found = discrepancies(expected: try expectedBlocks(of: try await manifests.value),
                                  drawn: try drawnBlocks(inMarkdown: try architectureDoc())).filter(kind)
        guard !found.isEmpty else { return }
        Issue.record("Docs/Architecture.md's map differs from the manifests:\(found.map { "\n  \($0)" }.joined())",
                     sourceLocation: sourceLocation)
    }

    // MARK: Docs/Architecture.md

    @Test func theMapHasABlockForEachPackagesModulesAndTestsAndNoOther() async throws {
        try await Self.expectNoDiscrepancy {
            switch $0 {
            case .missingBlock, .unknownBlock: true
            default: false
            }
        }
    }

    @Test func everyTargetOfBothManifestsIsDrawn() async throws {
        try await Self.expectNoDiscrepancy { if case .missingTarget = $0 { true } else { false } }
    }

    @Test func everyNodeDrawnIsATargetOrWhatOneImports() async throws {
        try await Self.expectNoDiscrepancy { if case .unknownNode = $0 { true } else { false } }
    }

    @Test func everyImportOfBothManifestsIsDrawn() async throws {
        try await Self.expectNoDiscrepancy { if case .missingEdge = $0 { true } else { false } }
    }

    @Test func everyArrowDrawnIsAnImportOfTheManifests() async throws {
        try await Self.expectNoDiscrepancy { if case .unknownEdge = $0 { true } else { false } }
    }

    @Test func theInWordsTableListsEveryTargetOfBothPackagesOnce() async throws {
        let targets = try await Self.manifests.value.flatMap(\.targets).map(\.name)
        let listed = try tableModules(inMarkdown: try Self.architectureDoc(), after: "## In words")
        let missing = Set(targets).subtracting(listed).sorted()
        let unknown = Set(listed).subtracting(targets).sorted()
        let twice = Set(listed.filter { name in listed.count { $0 == name } > 1 }).sorted()
        #expect(missing.isEmpty, "Docs/Architecture.md's \"In words\" table does not list \(missing)")
        #expect(unknown.isEmpty, "Docs/Architecture.md's \"In words\" table lists \(unknown), which are no targets")
        #expect(twice.isEmpty, "Docs/Architecture.md's \"In words\" table lists \(twice) twice")
    }

    // MARK: Manifests

    /// Two packages as dump-package prints them, cut to what the map
    /// reads: Base, with a C library, a product of two targets and a
    /// test; App, which uses Base's product and two products of swift-nio.
    static let example = """
        [{"name": "Base", "products": [{"name": "Kit", "targets": ["Base", "Extra"]}],
          "targets": [
            {"name": "CBase", "type": "system", "path": "Sources/CBase", "dependencies": []},
            {"name": "Base", "type": "regular", "dependencies": [{"byName": ["CBase", null]}]},
            {"name": "Extra", "type": "regular", "dependencies": [{"target": ["Base", null]}]},
            {"name": "BaseTests", "type": "test", "dependencies": [{"byName": ["Base", null]}]}]},
         {"name": "App", "products": [],
          "targets": [
            {"name": "App", "type": "executable", "dependencies": [
              {"product": ["Kit", "Base", null, null]},
              {"product": ["NIOCore", "swift-nio", null, null]},
              {"product": ["NIOPosix", "swift-nio", null, {"platformNames": ["linux"]}]}]},
            {"name": "AppTestSupport", "type": "regular", "path": "Tests/AppTestSupport",
             "dependencies": [{"byName": ["App", null]}]}]}]
        """

    /// The blocks that the example's manifests ask for.
    static func exampleBlocks() throws -> [MapBlockKey: ExpectedBlock] {
        try expectedBlocks(of: JSONDecoder().decode([PackageManifest].self, from: Data(example.utf8)))
    }

    /// The example's four blocks.
    static let baseModules = MapBlockKey(package: "Base", part: .modules)
    static let baseTests = MapBlockKey(package: "Base", part: .tests)
    static let appModules = MapBlockKey(package: "App", part: .modules)
    static let appTests = MapBlockKey(package: "App", part: .tests)

    @Test func aTargetsDependenciesOnTargetsOfItsPackageAreArrowsToThem() throws {
        let blocks = try Self.exampleBlocks()
        #expect(blocks[Self.baseModules] == ExpectedBlock(
            targets: ["CBase", "Base", "Extra"],
            edges: [MapEdge("Base", "CBase"), MapEdge("Extra", "Base")]))
    }

    @Test func aProductOfTheOtherManifestIsAnArrowToEachOfItsTargets() throws {
        let edges = try #require(try Self.exampleBlocks()[Self.appModules]).edges
        #expect(edges.isSuperset(of: [MapEdge("App", "Base"), MapEdge("App", "Extra")]))
        #expect(!edges.contains(MapEdge("App", "Kit")))
    }

    @Test func theProductsOfAnOutsidePackageAreOneArrowToThatPackage() throws {
        let edges = try #require(try Self.exampleBlocks()[Self.appModules]).edges
        #expect(edges.filter { !["Base", "Extra"].contains($0.to) } == [MapEdge("App", "swift-nio")])
    }

    @Test func testTargetsAndTheTargetsUnderTestsAreInTheTestsBlock() throws {
        let blocks = try Self.exampleBlocks()
        #expect(blocks[Self.baseTests] == ExpectedBlock(targets: ["BaseTests"], edges: [MapEdge("BaseTests", "Base")]))
        #expect(blocks[Self.appTests] == ExpectedBlock(targets: ["AppTestSupport"], edges: [MapEdge("AppTestSupport", "App")]))
    }

    @Test func aDependencyByNameOnNoTargetIsRefused() throws {
        let manifest = """
            {"name": "P", "products": [], "targets": [
              {"name": "T", "type": "regular", "dependencies": [{"byName": ["ArgumentParser", null]}]}]}
            """
        let decoded = try JSONDecoder().decode(PackageManifest.self, from: Data(manifest.utf8))
        let error = #expect(throws: TestFailure.self) { try expectedBlocks(of: [decoded]) }
        #expect(error?.description.contains("depends on ArgumentParser, which is no target of P") == true)
    }

    // MARK: Mermaid

    @Test func ampersandsAndChainsDrawAnArrowFromEachNodeToEachOfTheNext() throws {
        let drawn = try readStatement("A & B --> C & D --> E")
        #expect(drawn.nodes == ["A", "B", "C", "D", "E"])
        #expect(drawn.edges == [MapEdge("A", "C"), MapEdge("A", "D"), MapEdge("B", "C"), MapEdge("B", "D"),
                                MapEdge("C", "E"), MapEdge("D", "E")])
    }

    @Test func aNodesShapeAndLabelAreNotPartOfItsId() throws {
        let drawn = try readStatement(#"PlayersCLI(["PlayersCLI (players)"])-->swift-nio[(swift-nio)] & CCurl[[CCurl]]"#)
        #expect(drawn.edges == [MapEdge("PlayersCLI", "swift-nio"), MapEdge("PlayersCLI", "CCurl")])
    }

    @Test func anotherKindOfLinkIsRefusedWithItsLine() {
        let markdown = "```mermaid\nflowchart TD\n    %% map: Base modules\n    Extra -.-> Base\n```\n"
        let error = #expect(throws: TestFailure.self) { try drawnBlocks(inMarkdown: markdown) }
        #expect(error?.description.hasPrefix("line 4, `Extra -.-> Base`: expected `-->`, `&` or the line's end") == true)
    }

    @Test func aMermaidBlockWithoutAMapLineIsRefused() {
        let markdown = "text\n```mermaid\nflowchart TD\n    Extra --> Base\n```\n"
        let error = #expect(throws: TestFailure.self) { try drawnBlocks(inMarkdown: markdown) }
        #expect(error?.description == "the Mermaid block of line 2 has no line `%% map: <package> modules|tests`")
    }

    // MARK: Discrepancies

    /// Base's blocks, drawn as the example's manifest has them.
    static let baseMap = """
        ```mermaid
        flowchart TD
            %% map: Base modules
            Extra --> Base
            Base --> CBase[[CBase]]
        ```

        ```mermaid
        flowchart TD
            %% map: Base tests
            BaseTests --> Base
        ```
        """

    /// What differs between `map` and Base's blocks of the example.
    static func baseDiscrepancies(_ map: String) throws -> [MapDiscrepancy] {
        let expected = try exampleBlocks().filter { $0.key.package == "Base" }
        return discrepancies(expected: expected, drawn: try drawnBlocks(inMarkdown: map))
    }

    @Test func aMapAsTheManifestsHaveItHasNoDiscrepancy() throws {
        #expect(try Self.baseDiscrepancies(Self.baseMap) == [])
    }

    @Test func aMapMissingAnArrowNamesThatArrow() throws {
        let map = Self.baseMap.replacingOccurrences(of: "Base --> CBase[[CBase]]", with: "CBase[[CBase]]")
        let found = try Self.baseDiscrepancies(map)
        #expect(found == [.missingEdge(Self.baseModules, MapEdge("Base", "CBase"))])
        #expect(found.map(\.description) == ["[Base modules] Base --> CBase is in the manifest, but not drawn"])
    }

    @Test func anArrowThatNoManifestHasIsNamed() throws {
        let map = Self.baseMap.replacingOccurrences(of: "Extra --> Base\n", with: "Extra --> Base & CBase\n")
        let found = try Self.baseDiscrepancies(map)
        #expect(found == [.unknownEdge(Self.baseModules, MapEdge("Extra", "CBase"))])
        #expect(found.map(\.description) == ["[Base modules] Extra --> CBase is drawn, but the manifests have no such import"])
    }

    @Test func aTargetNotDrawnIsNamed() throws {
        let map = Self.baseMap.replacingOccurrences(of: "BaseTests --> Base", with: "Base")
        #expect(Set(try Self.baseDiscrepancies(map)) == [
            .missingTarget(Self.baseTests, "BaseTests"),
            .missingEdge(Self.baseTests, MapEdge("BaseTests", "Base")),
        ])
    }

    @Test func aNodeThatIsNoTargetIsNamed() throws {
        let map = Self.baseMap.replacingOccurrences(of: "Extra --> Base\n", with: "Extra --> Base & Kit\n")
        #expect(Set(try Self.baseDiscrepancies(map)) == [
            .unknownNode(Self.baseModules, "Kit"),
            .unknownEdge(Self.baseModules, MapEdge("Extra", "Kit")),
        ])
    }

    @Test func aBlockOfNoPackageAndAMissingBlockAreNamed() throws {
        let map = Self.baseMap.replacingOccurrences(of: "%% map: Base tests", with: "%% map: Bsae tests")
        #expect(Set(try Self.baseDiscrepancies(map)) == [
            .unknownBlock(MapBlockKey(package: "Bsae", part: .tests)),
            .missingBlock(Self.baseTests),
        ])
    }

    @Test func theInWordsTableGivesTheCodeSpansOfItsFirstColumnOutsideParentheses() throws {
        let markdown = """
            In words:

            | module | imports |
            | --- | --- |
            | `Base` | `CBase` |
            | `App` (`app`), `AppTests` | `Base`, swift-nio |

            | other | table |
            """
        #expect(try tableModules(inMarkdown: markdown, after: "In words") == ["Base", "App", "AppTests"])
    }
}
