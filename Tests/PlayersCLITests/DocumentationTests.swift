import Foundation
import TestSupport
import Testing

/// Every `console` block of README.md and Docs/*.md, run as written, in a
/// temporary home (the rules: ``DocumentedSession``): the documentation
/// and the programs cannot drift apart.
@Suite struct DocumentationTests {
    @Test(arguments: try DocumentedSession.pages())
    func everyConsoleBlockPrintsWhatThePageSays(_ page: String) async throws {
        let session = try DocumentedSession(page: page)
        #expect(session.blocksWithoutCommands.isEmpty,
                "\(page): the console blocks at lines \(session.blocksWithoutCommands) have no '$ ' command: run one, or mark the block <!-- illustration -->.")
        // A page runs for a minute or more: on a thread of its own, not on
        // one of the few that every other test's tasks need.
        for mismatch in try await onThread({ try session.mismatches() }) {
            Issue.record("\(page), \(mismatch)")
        }
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
