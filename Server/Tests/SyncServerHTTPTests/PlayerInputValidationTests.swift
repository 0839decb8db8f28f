import Foundation
import Hummingbird
import NIOCore
import ServerTestSupport
import Testing

/// A player's row edited through `/v1/rows/player` follows Players'
/// declaration (``PlayersSchema``), the rule of the command line and of a
/// sync: a refused name or score is a 400 that says why, and the database
/// is left as it was.
@Suite struct PlayerInputValidationTests {
    static let nameRule = "it must be a string of 1 to 100 characters and at most 400 UTF-8 bytes, without control characters"

    /// Sends `body` to create a player and to update the existing one,
    /// expecting a 400 with `message` both times and no change.
    func expectRefused(_ body: Data, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for kind in StoreKind.allCases {
            try await expectRefused(body, message, kind, sourceLocation: sourceLocation)
        }
    }

    func expectRefused(_ body: Data, _ message: String, _ kind: StoreKind, sourceLocation: SourceLocation) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let existing = try await store.insert(name: "Existing", score: 1)
            let before = try await store.state()
            for (method, uri) in [(HTTPRequest.Method.post, "/v1/rows/player"), (.put, "/v1/rows/player/\(existing.uuid.uuidString)")] {
                let response = try await client.execute(uri: uri, method: method, headers: [.contentType: "application/json"],
                                                        body: ByteBuffer(bytes: body))
                #expect(response.status == .badRequest, sourceLocation: sourceLocation)
                #expect(response.errorMessage == message, sourceLocation: sourceLocation)
            }
            #expect(try await store.state() == before, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [(#"Arthur\u001b[2J"#, "U+001B"), (#"Arthur\nDent"#, "U+000A"), (#"Arthur\n"#, "U+000A"),
                      (#"\u009b31m"#, "U+009B"), (#"del\u007f"#, "U+007F"), ("tab\\there", "U+0009")])
    func controlCharactersInANameAreRefused(_ name: String, _ code: String) async throws {
        try await expectRefused(Data(#"{"values":{"name":"\#(name)","score":5}}"#.utf8),
                                "$.values.name: the name contains a control character (\(code)): \(Self.nameRule)")
    }

    @Test func oneLetterWithFiveThousandCombiningMarksIsTooLong() async throws {
        let name = "a" + String(repeating: "\u{301}", count: 5000)
        try await expectRefused(Data(#"{"values":{"name":"\#(name)","score":5}}"#.utf8),
                                "$.values.name: the name is longer than 100 characters or 400 UTF-8 bytes: \(Self.nameRule)")
    }

    @Test func aNameOfSpacesOverFourHundredBytesIsTooLongNotTrimmed() async throws {
        let name = String(repeating: " ", count: 1000) + "A"
        try await expectRefused(Data(#"{"values":{"name":"\#(name)","score":5}}"#.utf8),
                                "$.values.name: the name is longer than 100 characters or 400 UTF-8 bytes: \(Self.nameRule)")
    }

    @Test func aBodyThatIsNotUTF8IsRefusedNotRepaired() async throws {
        try await expectRefused(Data(#"{"values":{"name":"Arthur"#.utf8) + Data([0xFF]) + Data(#"","score":5}}"#.utf8),
                                "the body must be valid UTF-8")
    }

    /// JSON exchanged between systems is UTF-8: a body in UTF-16 or
    /// UTF-32, which Foundation's parsers would read, is refused.
    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf16, .utf32LittleEndian])
    func aBodyInUTF16OrUTF32IsRefused(_ encoding: String.Encoding) async throws {
        try await expectRefused(try #require(#"{"values":{"name":"Arthur","score":5}}"#.data(using: encoding)), "the body must be valid UTF-8")
    }

    /// Parsers disagree on which of two equal keys wins, and on what
    /// `1e2` or `-0` mean: the server refuses them, as a push's values
    /// (StrictJSON).
    @Test(arguments: [
        (#"{"values":{"name":"Arthur","score":5,"score":7}}"#, "$.values.score: appears twice"),
        (#"{"values":{"name":"Arthur","n\u0061me":"Zaphod","score":5}}"#, "$.values.name: appears twice"),
        (#"{"values":{"name":"Arthur","score":1e2}}"#, "$.values.score: the score is not an integer: it must be an integer from 0 to 1000000000"),
        (#"{"values":{"name":"Arthur","score":100.0}}"#, "$.values.score: the score is not an integer: it must be an integer from 0 to 1000000000"),
        (#"{"values":{"name":"Arthur","score":-0}}"#, "$.values.score: the score is not an integer: it must be an integer from 0 to 1000000000"),
        (#"{"values":{"name":"Arthur","score":1e-400}}"#, "$.values.score: the score is not an integer: it must be an integer from 0 to 1000000000"),
    ])
    func repeatedKeysAndNumbersThatAreNotIntegersAreRefused(_ body: String, _ message: String) async throws {
        try await expectRefused(Data(body.utf8), message)
    }

    @Test func aScoreOutOfRangeSaysWhy() async throws {
        try await expectRefused(Data(#"{"values":{"name":"Arthur","score":-5}}"#.utf8),
                                "$.values.score: the score is -5, outside 0…1000000000: it must be an integer from 0 to 1000000000")
    }
}
