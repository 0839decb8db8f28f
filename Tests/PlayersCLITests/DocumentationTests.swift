import Foundation
import TestSupport
import Testing

/// Every `console` block of README.md and Docs/*.md, run as written, in a
/// temporary home (the rules: ``DocumentedSession``): the documentation
/// and the programs cannot drift apart. The pages marked `<!-- long tier`
/// (BuildingAnApp.md, which builds a package) run in `make check-long` only.
@Suite struct DocumentationTests {
    /// Also: no page rebuilds the executables that the tests run. The
    /// README's `make install` over the tree that `make test` built builds
    /// nothing (relinking `players-server` under running tests made their
    /// `exec` fail with "Text file busy").
    @Test(arguments: try DocumentedSession.pages())
    func everyConsoleBlockPrintsWhatThePageSays(_ page: String) async throws {
        let session = try DocumentedSession(page: page)
        #expect(session.blocksWithoutCommands.isEmpty,
                "\(page): the console blocks at lines \(session.blocksWithoutCommands) have no '$ ' command: run one, or mark the block <!-- illustration -->.")
        let executables = try ["players", "players-server"].map { try BuiltProducts.path($0) }
        let before = try executables.map(Self.fileIdentity)
        // A page runs for a minute or more: on a thread of its own, not on
        // one of the few that every other test's tasks need.
        for mismatch in try await onThread({ try session.mismatches() }) {
            Issue.record("\(page), \(mismatch)")
        }
        #expect(try executables.map(Self.fileIdentity) == before, "\(page) rebuilt the executables that the tests run")
    }

    /// A file's inode and modification time: what a relink changes.
    static func fileIdentity(_ path: String) throws -> [Int] {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let modified = try #require(attributes[.modificationDate] as? Date)
        return [try #require(attributes[.systemFileNumber] as? Int), Int(modified.timeIntervalSince1970 * 1_000_000)]
    }

    /// A heredoc's lines are its command's (the file it writes), up to
    /// its word alone: what follows is the output, and runs as written.
    @Test func aHeredocsLinesBelongToItsCommand() async throws {
        let session = try DocumentedSession(page: "heredoc.md", text: """
            ```console
            $ cat > greeting.txt <<'EOF'
            $ not a command
            Hello, $USER
            EOF
            $ tail -n 1 greeting.txt
            Hello, $USER
            $ tr a-z A-Z <<-END
            \tquiet
            \tEND
            QUIET
            $ tr a-z A-Z <<< here
            HERE
            ```
            """)
        #expect(session.commands.map(\.text) == [
            "cat > greeting.txt <<'EOF'\n$ not a command\nHello, $USER\nEOF", "tail -n 1 greeting.txt", "tr a-z A-Z <<-END\n\tquiet\n\tEND",
            "tr a-z A-Z <<< here",
        ])
        #expect(session.commands.map(\.expected) == [[], ["Hello, $USER"], ["QUIET"], ["HERE"]])
        for mismatch in try await onThread({ try session.mismatches() }) {
            Issue.record("\(mismatch)")
        }
        #expect(throws: TestFailure.self) {
            try DocumentedSession(page: "heredoc.md", text: "```console\n$ cat <<EOF\nno end\n```\n")
        }
    }

    /// A page marked `<!-- long tier …` runs in `make check-long` only.
    @Test func aPageOfTheLongTierRunsInItAlone() throws {
        let page = "<!-- long tier: it builds a package -->\n\n```console\n$ true\n```\n"
        #expect(try DocumentedSession(page: "long.md", text: page).runsInLongTierOnly)
        #expect(try !DocumentedSession(page: "short.md", text: "```console\n$ true\n```\n").runsInLongTierOnly)
        let longOnly = try DocumentedSession.pages(tier: .long).filter { try DocumentedSession(page: $0).runsInLongTierOnly }
        #expect(longOnly.contains("Docs/BuildingAnApp.md"))
        #expect(try DocumentedSession.pages(tier: .correctness) == DocumentedSession.pages(tier: .long).filter { !longOnly.contains($0) })
    }

    @Test func aLineOfEllipsisMatchesAnyNumberOfLines() {
        #expect(DocumentedSession.matches(["a", "…", "d"], ["a", "b", "c", "d"]))
        #expect(DocumentedSession.matches(["a", "…"], ["a"]))
        #expect(DocumentedSession.matches(["x…z"], ["x y z"]))
        #expect(!DocumentedSession.matches(["a", "…", "d"], ["a", "b"]))
        #expect(!DocumentedSession.matches(["x…z"], ["x y"]))
        #expect(!DocumentedSession.matches(["a"], ["a", "b"]))
    }
}
