import Foundation
import Players
import PlayersShared
import TestSupport
import Testing

/// `players add` and `players edit` refuse names and scores that break
/// ``PlayerValidator``: exit code 2, one sentence, and the database files
/// byte-identical.
@Suite struct NameValidationTests {
    /// Runs `arguments`, expecting a usage error whose first line is
    /// `message`, and no change to the database files.
    func expectRefused(_ arguments: [String], _ message: String, in sandbox: CLISandbox,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 2, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.split(separator: "\n").first.map(String.init) == "players: " + message, sourceLocation: sourceLocation)
        #expect(!result.error.contains("\u{1B}"), sourceLocation: sourceLocation)
        #expect(sandbox.databaseSnapshot() == before, sourceLocation: sourceLocation)
    }

    static let nameRule = "it must be a string of 1 to 100 characters and at most 400 UTF-8 bytes, without control characters"

    @Test(arguments: [("\u{1B}[31mred", "U+001B"), ("Arthur\nDent", "U+000A"), ("tab\there", "U+0009"),
                      ("csi\u{9B}2J", "U+009B"), ("del\u{7F}", "U+007F"), ("Arthur\n ", "U+000A")])
    func controlCharactersInANameAreRefused(_ name: String, _ code: String) async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 1)
        let message = "the name contains a control character (\(code)): \(Self.nameRule)"
        try await expectRefused(["add", "--name", name, "--score", "5"], message, in: sandbox)
        try await expectRefused(["edit", "1", "--name", name], message, in: sandbox)
    }

    @Test func aNameOfAHundredThousandSpacesIsTooLong() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 1)
        try await expectRefused(["add", "--name", String(repeating: " ", count: 100_000) + "A", "--score", "5"],
                          "the name is longer than 100 characters or 400 UTF-8 bytes: \(Self.nameRule)", in: sandbox)
    }

    @Test func oneLetterWithFiveThousandCombiningMarksIsTooLong() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 1)
        let name = "a" + String(repeating: "\u{301}", count: 5000)
        try await expectRefused(["add", "--name", name, "--score", "5"],
                          "the name is longer than 100 characters or 400 UTF-8 bytes: \(Self.nameRule)", in: sandbox)
        try await expectRefused(["edit", "1", "--name", name],
                          "the name is longer than 100 characters or 400 UTF-8 bytes: \(Self.nameRule)", in: sandbox)
    }

    @Test func aScoreOutOfRangeIsRefused() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 1)
        try await expectRefused(["add", "--name", "Zaphod", "--score=-5"],
                          "the score is -5, outside 0…1000000000: it must be an integer from 0 to 1000000000", in: sandbox)
    }

    @Test func aNameThatIsNotUTF8IsRefusedNotRepaired() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 1)
        let before = sandbox.databaseSnapshot()
        // Process takes Swift strings: the shell makes the invalid byte.
        let process = try sandbox.makeProcess([])
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"exec "$0" add --name "$(printf 'Arthur\377')" --score 5"#, try CLISandbox.executable().path]
        let result = try await TestSupport.run(process)
        #expect(result.status == 2)
        #expect(result.error == "players: argument 3 ('Arthur\u{FFFD}') is not valid UTF-8: give names and paths as UTF-8 text\n")
        #expect(sandbox.databaseSnapshot() == before)
        await #expect(try sandbox.run(["list", "--json"]).output.contains("\u{FFFD}") == false)
    }

    @Test func surroundingSpacesAreTrimmedAndAccentsKept() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 1)
        await #expect(try sandbox.run(["add", "--name", "  Zoé ", "--score", "5"]).output == "Added player 2: Zoé, 5.\n")
    }
}
