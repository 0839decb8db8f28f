import Foundation
import TestSupport
import Testing

/// `players list`: an aligned table or JSON Lines, streamed as the rows
/// are read, with a window (`--limit`, `--offset`) of either order.
@Suite struct ListCommandTests {
    /// Players 1 to 4: Arthur 100, barbara 1000, Ford 5, Zaphod Beeblebrox 50.
    func makeSandbox() async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try sandbox.addPlayers([("Arthur", 100), ("barbara", 1000), ("Ford", 5), ("Zaphod Beeblebrox", 50)])
        return sandbox
    }

    @Test func theTableIsAlignedOnItsWidestValues() async throws {
        let sandbox = try await makeSandbox()
        let result = try await sandbox.run(["list"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == """
            ID  NAME               SCORE
             2  barbara             1000
             1  Arthur               100
             4  Zaphod Beeblebrox     50
             3  Ford                   5

            """)
    }

    /// The widths are those of all players: the pages of a listing line up.
    @Test func limitAndOffsetPrintAWindowAlignedAsTheWholeTable() async throws {
        let sandbox = try await makeSandbox()
        let byScore = try await sandbox.run(["list", "--limit", "2", "--offset", "1"])
        #expect(byScore.status == 0, "\(byScore.error)")
        #expect(byScore.output == "ID  NAME               SCORE\n 1  Arthur               100\n 4  Zaphod Beeblebrox     50\n")
        let byName = try await sandbox.run(["list", "--order", "name", "--limit", "2"])
        #expect(byName.output == "ID  NAME               SCORE\n 1  Arthur               100\n 2  barbara             1000\n")
        let rest = try await sandbox.run(["list", "--order", "name", "--offset", "3"])
        #expect(rest.output == "ID  NAME               SCORE\n 4  Zaphod Beeblebrox     50\n")
    }

    @Test func aWindowPastTheLastPlayerPrintsNoPlayers() async throws {
        let sandbox = try await makeSandbox()
        await #expect(try sandbox.run(["list", "--offset", "4"]).output == "No players.\n")
        await #expect(try sandbox.run(["list", "--limit", "0"]).output == "No players.\n")
        await #expect(try sandbox.run(["list", "--json", "--offset", "10"]).output == "")
    }

    @Test func jsonIsOnePlayerObjectPerLine() async throws {
        let sandbox = try await makeSandbox()
        let uuids = Dictionary(uniqueKeysWithValues: try sandbox.players().map { line in
            let fields = line.split(separator: " ")
            return (String(fields[1]), String(fields[0]))
        })
        let result = try await sandbox.run(["list", "-j", "--order", "name", "--limit", "2"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == """
            {"id":1,"name":"Arthur","score":100,"uuid":"\(uuids["Arthur"] ?? "")"}
            {"id":2,"name":"barbara","score":1000,"uuid":"\(uuids["barbara"] ?? "")"}

            """)
    }

    @Test func namesOutsidePrintableASCIIAreMeasuredAsPrinted() async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        // "é" is one character of two bytes; "e" and a combining acute
        // accent are one character of three bytes; U+202E is printed as
        // the six characters \u202E.
        for (name, score) in [("Zoé", 3), ("Rene\u{301}", 2), ("A\u{202E}B", 1)] {
            try await sandbox.runChecked(["add", "--name", name, "--score", "\(score)"])
        }
        let table = try await sandbox.run(["list"])
        #expect(table.output == "ID  NAME      SCORE\n 1  Zoé           3\n 2  Rene\u{301}          2\n 3  A\\u202EB      1\n")
        let json = try await sandbox.run(["list", "--json"])
        #expect(json.output.contains(#""name":"A\u202EB""#), "\(json.output)")
        #expect(try jsonLines(json.output).compactMap { $0["name"] as? String } == ["Zoé", "Rene\u{301}", "A\u{202E}B"])
    }

    @Test(arguments: [["--limit=-1"], ["--offset=-5"], ["--limit", "many"]])
    func aNegativeOrNonNumericWindowIsAUsageError(_ arguments: [String]) async throws {
        let sandbox = try await makeSandbox()
        let result = try await sandbox.run(["list"] + arguments)
        #expect(result.status == 2, "\(result.error)")
        #expect(result.output.isEmpty)
    }
}
