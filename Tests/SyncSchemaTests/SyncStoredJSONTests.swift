import Foundation
@testable import SyncSchema
import Testing
import TestSupport

/// The stored JSON of a row's values, read without `JSONDecoder` when it
/// holds strings, integers, booleans and nulls (``SyncStoredJSON/scalars(from:)``):
/// the same values as `JSONDecoder` reads, and `JSONDecoder`'s answer for
/// anything else.
@Suite struct SyncStoredJSONTests {
    static let seeds = TestSeeds("STORED_JSON", test: "SyncStoredJSONTests", correctness: 4, long: 40)

    @Test func anObjectOfStringsIntegersBooleansAndNullsIsReadWithoutJSONDecoder() throws {
        let text = #"{"a":"Zoé \"⚽\" \\ \/ \n\t\u00e9\ud83d\ude00","b":-42,"c":true,"d":false,"e":null,"f":0,"g":"" , "h" : 9223372036854775807 }"#
        let fast = try #require(FlatObjectReader.read(text))
        #expect(fast == (try SyncStoredJSON.decode([String: SyncJSONScalar].self, from: text)))
        #expect(fast["a"] == .string("Zoé \"⚽\" \\ / \n\té😀"))
        #expect(FlatObjectReader.read("{}") == [:])
    }

    @Test(arguments: [
        #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":01}"#, #"{"a":9223372036854775808}"#, #"{"a":"\ud83d"}"#, #"{"a":"\u+0e9"}"#,
        #"{"a":[1]}"#, #"{"a":{}}"#, #"{"a":1,"a":2}"#, #"{"a":1} x"#, "{\"a\":\"tab\tinside\"}", #"["a"]"#, "",
    ])
    func anythingElseIsLeftToJSONDecoder(_ text: String) throws {
        #expect(FlatObjectReader.read(text) == nil)
        let fast = Result { try SyncStoredJSON.scalars(from: text) }
        let decoded = Result { try SyncStoredJSON.decode([String: SyncJSONScalar].self, from: text) }
        switch (fast, decoded) {
        case (.success(let fast), .success(let decoded)): #expect(fast == decoded)
        case (.failure, .failure): break
        default: Issue.record("\(text): \(fast) against \(decoded)")
        }
    }

    @Test func everyStoredTextOfRandomValuesReadsBackAsJSONDecoderReadsIt() throws {
        let pieces = ["a", "é", "⚽", "\"", "\\", "/", "\n", "\u{1}", "\u{7f}", " ", "😀", "\t"]
        for seed in Self.seeds.all {
            var generator = SeededRandom(seed: seed)
            for round in 0..<500 {
                var values: [String: SyncJSONScalar] = [:]
                for column in 0..<Int.random(in: 0...5, using: &generator) {
                    values["c\(column)"] = switch Int.random(in: 0...4, using: &generator) {
                    case 0: .null
                    case 1: .boolean(Bool.random(using: &generator))
                    case 2: .integer(Int64.random(in: .min ... .max, using: &generator))
                    case 3: .string((0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
                    default: .real(Double.random(in: -1e6...1e6, using: &generator))
                    }
                }
                let text = try SyncStoredJSON.text(values)
                let replay = "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(text)"
                #expect(try SyncStoredJSON.scalars(from: text) == (try SyncStoredJSON.decode([String: SyncJSONScalar].self, from: text)), "\(replay)")
                if !values.values.contains(where: { if case .real = $0 { true } else { false } }) {
                    #expect(FlatObjectReader.read(text) != nil, "\(replay) went to JSONDecoder")
                }
            }
        }
    }
}

/// A UUID read without `sscanf` (``Foundation/UUID/init(parsing:)``) is
/// the UUID that `UUID(uuidString:)` reads, and only a UUID's 36
/// characters are read (`sscanf` takes more).
@Suite struct UUIDParsingTests {
    @Test func aUUIDOfEitherCaseIsReadAsUUIDStringReadsIt() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(UUID(parsing: uuid.uuidString) == uuid)
            #expect(UUID(parsing: uuid.uuidString.lowercased()) == uuid)
        }
        #expect(UUID(parsing: "00000000-0000-0000-0000-000000000000") == UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
    }

    @Test(arguments: ["", "5C2F0D9E8A1B4C3D9E4F0A1B2C3D4E5F", "5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5", "5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5FF",
                      "5C2F0D9E+8A1B-4C3D-9E4F-0A1B2C3D4E5F", "5C2F0D9G-8A1B-4C3D-9E4F-0A1B2C3D4E5F", "5C2F0D9É-8A1B-4C3D-9E4F-0A1B2C3D4E5F"])
    func anythingElseIsRefusedAsUUIDStringRefusesIt(_ text: String) {
        #expect(UUID(parsing: text) == nil)
        #expect(UUID(uuidString: text) == nil)
    }

    @Test func aTextThatSscanfReadsButIsNoUUIDsIsRefused() {
        // Foundation reads it as …4E05: white space skipped, a digit short.
        let text = " 5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5"
        #expect(UUID(uuidString: text) != nil)
        #expect(UUID(parsing: text) == nil)
    }
}
