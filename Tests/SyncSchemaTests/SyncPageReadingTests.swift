import Foundation
import SyncSchema
import Testing
import TestSupport

/// A page is read in one pass (``SyncPage/decode(_:schema:)``): JSON's
/// strings and numbers as a JSON parser reads them, StrictJSON's rules,
/// members in any order, and every refusal at the path of its element.
@Suite struct SyncPageReadingTests {
    static let seeds = TestSeeds("PAGE_READING", test: "SyncPageReadingTests", correctness: 4, long: 40)
    let schema = try! SyncSchema(json: Data(SyncSchemaTests.notesJSON.utf8))
    let noteID = UUID(uuidString: "0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34")!
    let notebookID = UUID(uuidString: "0E42CFD4-B6CA-4CC9-A1CE-408B94824A58")!

    /// A delta page with one note, as its members would be in `order`.
    func pageText(title: String = #""Groceries""#, version: String = "42", order: [String]? = nil, protocolVersion: String = "1") -> String {
        let row = #"{"id":"\#(noteID.uuidString)","table":"note","values":{"notebook":"\#(notebookID.uuidString)","title":\#(title)},"version":\#(version)}"#
        let members = [
            "complete": "true", "cursor": #""c1""#, "kind": #""delta""#, "protocolVersion": protocolVersion,
            "rows": "[\(row)]", "tombstones": "[]",
        ]
        let keys = order ?? members.keys.sorted()
        return "{" + keys.map { #""\#($0)":\#(members[$0]!)"# }.joined(separator: ",") + "}"
    }

    func decode(_ text: String) throws(SyncMessageError) -> SyncPage {
        try SyncPage.decode(Data(text.utf8), schema: schema)
    }

    @Test func membersInAnyOrderAreReadAsTheSamePage() throws {
        let page = try decode(pageText())
        #expect(page.rows.map(\.row.values["title"]) == [.text("Groceries")])
        #expect(try decode(pageText(order: ["rows", "tombstones", "kind", "cursor", "complete", "protocolVersion"])) == page)
        #expect(try decode(" \n" + pageText(order: ["tombstones", "protocolVersion", "rows", "complete", "kind", "cursor"]) + "\t") == page)
    }

    @Test func aPageOfAnotherVersionIsRefusedAsSuchWhateverComesBeforeItsVersion() {
        let order = ["rows", "tombstones", "kind", "cursor", "complete", "protocolVersion"]
        // Rows this version refuses (no title, a key it does not know):
        // another version's page may be anything.
        let text = pageText(title: "1", order: order, protocolVersion: "2").replacingOccurrences(of: #""kind""#, with: #""mode""#)
        #expect(throws: SyncMessageError(path: "$.protocolVersion", "version 2, and this program reads version 1 only")) { try decode(text) }
        #expect(throws: SyncMessageError(path: "$.protocolVersion", "missing")) {
            try decode(pageText(order: ["rows", "tombstones", "kind", "cursor", "complete"]))
        }
    }

    /// Strings written with every escape JSON has (`\u` for any character,
    /// surrogate pairs beyond the first plane) read as a JSON parser reads
    /// them.
    @Test func everyWayOfWritingAStringIsReadAsJSONDecoderReadsIt() throws {
        let characters: [Unicode.Scalar] = ["a", "é", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}",
                                            "\u{2028}", "\u{FFFF}", "😀", "\u{10FFFF}"]
        let short: [Unicode.Scalar: String] = ["\"": #"\""#, "\\": #"\\"#, "/": #"\/"#, "\u{8}": #"\b"#, "\u{C}": #"\f"#, "\u{A}": #"\n"#,
                                               "\u{D}": #"\r"#, "\u{9}": #"\t"#]
        for seed in Self.seeds.all {
            var random = SeededRandom(seed: seed)
            for round in 0..<200 {
                var written = "\""
                for _ in 0..<Int.random(in: 0...8, using: &random) {
                    let scalar = characters.randomElement(using: &random)!
                    let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
                    switch Int.random(in: 0...2, using: &random) {
                    case 0 where !mustEscape: written.unicodeScalars.append(scalar)
                    case 1 where short[scalar] != nil: written += short[scalar]!
                    default:
                        for unit in String(scalar).utf16 {
                            let hex = String(unit, radix: 16)
                            written += "\\u" + String(repeating: "0", count: 4 - hex.count)
                                + (Bool.random(using: &random) ? hex.uppercased() : hex)
                        }
                    }
                }
                written += "\""
                let expected = try JSONDecoder().decode(String.self, from: Data(written.utf8))
                let page = try decode(pageText().replacingOccurrences(of: #""cursor":"c1""#, with: #""cursor":\#(written)"#))
                #expect(page.cursor == expected, "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(written)")
            }
        }
    }

    @Test func aRowsValuesAreReadByTheirColumnsTypes() throws {
        let body = try decode(pageText().replacingOccurrences(of: #""title":"Groceries""#, with: #""title":"Groceries","body":null"#))
        #expect(body.rows[0].row.values["body"] == .null)
        // An integer beyond 64 bits is a real, which an integer column
        // refuses in its own words; a fraction is no text.
        #expect(throws: SyncMessageError.self) {
            try decode(pageText(title: "9223372036854775808"))
        }
    }

    /// An edit of ``pageText``: `of` replaced by `with`, refused at `path`.
    struct Breakage: Sendable, CustomTestStringConvertible {
        var of: String
        var with: String
        var path: String
        var message: String

        var testDescription: String { "\(path): \(message) (\(with))" }
    }

    static let row = #"{"id":"0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34","table":"note","values":{"notebook":"0E42CFD4-B6CA-4CC9-A1CE-408B94824A58","title":"Groceries"},"version":42}"#
    static let integerRule = "not an integer written as one (digits only, no fraction, exponent or -0)"

    @Test(arguments: [
        // StrictJSON's rules, and the shape of a page.
        Breakage(of: #""title":"Groceries""#, with: #""title":"Groceries","title":"Other""#, path: "$.rows[0].values.title", message: "appears twice"),
        Breakage(of: #""kind":"delta""#, with: #""kind":"delta","kind":"delta""#, path: "$.kind", message: "appears twice"),
        Breakage(of: #""version":42"#, with: #""version":4.2e1"#, path: "$.rows[0].version", message: integerRule),
        Breakage(of: #""version":42"#, with: #""version":-0"#, path: "$.rows[0].version", message: integerRule),
        Breakage(of: #""version":42"#, with: #""version":9223372036854775808"#, path: "$.rows[0].version", message: "not an integer in range"),
        Breakage(of: #""version":42"#, with: #""version":"42""#, path: "$.rows[0].version", message: "expected an integer"),
        Breakage(of: #""version":42"#, with: #""version":null"#, path: "$.rows[0].version", message: "expected an integer, found null"),
        Breakage(of: #""version":42"#, with: #""version":0"#, path: "$.rows[0].version", message: "not positive"),
        Breakage(of: #""version":42"#, with: #""version":42,"versoin":42"#, path: "$.rows[0].versoin", message: "unknown key"),
        Breakage(of: #""cursor":"c1""#, with: #""cursor":null"#, path: "$.cursor", message: "expected a string, found null"),
        Breakage(of: #""title":"Groceries""#, with: #""title":{"text":"Groceries"}"#, path: "$.rows[0].values.title",
                 message: "expected null, a boolean, a number or a string"),
        Breakage(of: #","values":{"notebook":"0E42CFD4-B6CA-4CC9-A1CE-408B94824A58","title":"Groceries"}"#, with: "",
                 path: "$.rows[0].values", message: "missing"),
        Breakage(of: #""kind":"delta""#, with: #""kind":"full""#, path: "$.kind", message: "neither snapshot nor delta"),
        Breakage(of: #""tombstones":[]"#, with: #""tombstones":[{"table":"note","id":"0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34","version":43}]"#,
                 path: "$.tombstones[0].id", message: "0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34 appears twice"),
        Breakage(of: #""rows":["#, with: #""rows":[\#(row),"#, path: "$.rows[1].id", message: "0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34 appears twice"),
        // Text that is not JSON.
        Breakage(of: #""cursor":"c1""#, with: "\"cursor\":\"c\u{1}\"", path: "$", message: "not valid JSON"),
        Breakage(of: #""cursor":"c1""#, with: #""cursor":"\ud800""#, path: "$", message: "not valid JSON"),
        Breakage(of: #""cursor":"c1""#, with: #""cursor":"\q""#, path: "$", message: "not valid JSON"),
        Breakage(of: #""version":42"#, with: #""version":042"#, path: "$", message: "not valid JSON"),
        Breakage(of: #""tombstones":[]"#, with: #""tombstones":[],"#, path: "$", message: "not valid JSON"),
    ])
    func aBrokenRuleIsRefusedAtItsPath(_ breakage: Breakage) {
        let text = pageText()
        #expect(text.contains(breakage.of))
        #expect(throws: SyncMessageError(path: breakage.path, breakage.message)) {
            try decode(text.replacingOccurrences(of: breakage.of, with: breakage.with))
        }
    }

    @Test(arguments: ["", " ", "x", #"{"protocolVersion":1}x"#, #"{"protocolVersion":1"#])
    func aBodyThatIsNotJSONIsRefusedAsSuch(_ body: String) {
        #expect(throws: SyncMessageError(path: "$", "not valid JSON")) { try decode(body) }
    }

    @Test func aBodyThatIsNoObjectIsRefusedAsSuch() {
        #expect(throws: SyncMessageError(path: "$", "expected an object")) { try decode("[]") }
    }

    @Test func invalidUTF8IsRefusedAsSuch() {
        var bytes = Array(pageText(title: #""Groceries@""#).utf8)
        bytes[bytes.firstIndex(of: UInt8(ascii: "@"))!] = 0xFF
        #expect(throws: SyncMessageError(path: "$", "not valid UTF-8")) { try SyncPage.decode(Data(bytes), schema: schema) }
    }

    /// A member read after the version is skipped first, however deep:
    /// without recursion, so a deep one cannot exhaust the stack.
    @Test func aDeeplyNestedMemberIsRefusedWithoutExhaustingTheStack() {
        let depth = 1_000_000
        let deep = #"{"rows":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + #","protocolVersion":1}"#
        #expect(throws: SyncMessageError(path: "$.rows[0]", "expected an object")) { try decode(deep) }
        #expect(throws: SyncMessageError(path: "$", "not valid JSON")) { try decode(#"{"rows":"# + String(repeating: "[", count: depth)) }
    }
}
