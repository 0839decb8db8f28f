import Foundation
@testable import SyncSchema
import Testing
import TestSupport

/// The stored JSON of a row's values and versions, read by the messages'
/// reader (``SyncSchema/StrictJSON/Reader``, through
/// ``SyncStoredJSON/scalars(from:)`` and ``SyncStoredJSON/integers(from:)``):
/// every text a store writes reads to the values that `JSONDecoder`, the
/// stores' reader before it, gave for the columns, reals bit for bit.
@Suite struct SyncStoredJSONTests {
    static let seeds = TestSeeds("STORED_JSON", test: "SyncStoredJSONTests", correctness: 4, long: 40)

    /// A value as a column of `type` stores it, written out so that
    /// -0.0 and 0.0 differ.
    static func stored(_ scalar: SyncJSONScalar?, as type: SyncColumnType) -> String {
        String(reflecting: scalar?.value(for: type))
    }

    @Test func anObjectOfStringsIntegersBooleansAndNullsReadsAsJSONDecoderReadsIt() throws {
        let text = #"{"a":"Zoé \"⚽\" \\ \/ \n\t\u00e9\ud83d\ude00","b":-42,"c":true,"d":false,"e":null,"f":0,"g":"" , "h" : 9223372036854775807 }"#
        let read = try SyncStoredJSON.scalars(from: text)
        #expect(read == (try FoundationJSON.decode([String: SyncJSONScalar].self, from: text)))
        #expect(read["a"] == .string("Zoé \"⚽\" \\ / \n\té😀"))
        #expect(try SyncStoredJSON.scalars(from: "{}") == [:])
    }

    @Test func numbersReadToTheValuesOfTheirColumnsAsJSONDecoderGaveThem() throws {
        let cases: [(text: String, type: SyncColumnType)] = [
            ("1.5", .real), ("1e3", .real), ("1e+16", .real), ("-0", .real), ("-0.0", .real), ("9223372036854775808", .real),
            ("5e-324", .real), ("1.7976931348623157e+308", .real), ("-9223372036854775808", .integer), ("0", .integer),
        ]
        for (number, type) in cases {
            let text = #"{"a":\#(number)}"#
            let read = try SyncStoredJSON.scalars(from: text)["a"]
            let decoded = try FoundationJSON.decode([String: SyncJSONScalar].self, from: text)["a"]
            #expect(Self.stored(read, as: type) == Self.stored(decoded, as: type), "\(number)")
        }
        // A real column's -0.0, written -0, has always read as 0.
        #expect(try SyncStoredJSON.scalars(from: #"{"a":-0}"#)["a"] == .integer(0))
    }

    @Test(arguments: [
        #"{"a":01}"#, #"{"a":"\ud83d"}"#, #"{"a":"\u+0e9"}"#, #"{"a":[1]}"#, #"{"a":{}}"#, #"{"a":1,"a":2}"#, #"{"a":1} x"#,
        "{\"a\":\"tab\tinside\"}", #"["a"]"#, "", #"{"a":1e400}"#, #"{"a":tru}"#,
    ])
    func whatNoStoreWritesIsRefused(_ text: String) {
        #expect(throws: StrictJSON.Violation.self) { try SyncStoredJSON.scalars(from: text) }
    }

    @Test(arguments: [#"{"a":1.5}"#, #"{"a":-0}"#, #"{"a":"1"}"#, #"{"a":null}"#, #"{"a":9223372036854775808}"#, #"{"a":1,"a":1}"#])
    func versionsThatAreNotIntegersAreRefused(_ text: String) {
        #expect(throws: StrictJSON.Violation.self) { try SyncStoredJSON.integers(from: text) }
    }

    @Test func everyStoredTextOfRandomValuesReadsToTheValuesJSONDecoderGave() throws {
        let pieces = ["a", "é", "⚽", "\"", "\\", "/", "\n", "\u{1}", "\u{7f}", " ", "😀", "\t", "\u{2028}"]
        let reals = [0.0, -0.0, 2.0, 1e15, 1e16, 1e17, 1e20, 1e300, 0.1, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                     9.223372036854776e18, -9.223372036854776e18, 1_152_921_504_606_846_976, 4_503_599_627_370_497]
        for seed in Self.seeds.all {
            var generator = SeededRandom(seed: seed)
            for round in 0..<500 {
                var values: [String: SyncJSONScalar] = [:]
                var types: [String: SyncColumnType] = [:]
                var versions: [String: Int64] = [:]
                for column in 0..<Int.random(in: 0...5, using: &generator) {
                    let name = "c\(column)"
                    let (value, type): (SyncJSONScalar, SyncColumnType) = switch Int.random(in: 0...5, using: &generator) {
                    case 0: (.null, .text)
                    case 1: (.boolean(Bool.random(using: &generator)), .boolean)
                    case 2: (.integer(Int64.random(in: .min ... .max, using: &generator)), .integer)
                    case 3: (.string((0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()), .text)
                    case 4: (.real(reals.randomElement(using: &generator)!), .real)
                    default: (.real(Self.finiteReal(using: &generator)), .real)
                    }
                    values[name] = value
                    types[name] = type
                    versions[name] = Int64.random(in: 1 ... .max, using: &generator)
                }
                // As a store writes a row's values: typed by their columns.
                let text = SyncStoredJSON.text(values.reduce(into: [String: SyncValue]()) { typed, member in
                    typed[member.key] = member.value.value(for: types[member.key]!)
                })
                let versionsText = SyncStoredJSON.text(versions)
                #expect(text == (try FoundationJSON.text(values)), "seed \(seed), round \(round): written as JSONEncoder writes it")
                #expect(versionsText == (try FoundationJSON.text(versions)), "seed \(seed), round \(round): \(versionsText)")
                let replay = "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(text)"
                let read = try SyncStoredJSON.scalars(from: text)
                let decoded = try FoundationJSON.decode([String: SyncJSONScalar].self, from: text)
                #expect(Set(read.keys) == Set(decoded.keys), "\(replay)")
                for (name, type) in types {
                    #expect(Self.stored(read[name], as: type) == Self.stored(decoded[name], as: type), "\(replay): \(name)")
                }
                #expect(try SyncStoredJSON.integers(from: versionsText) == (try FoundationJSON.decode([String: Int64].self, from: versionsText)),
                        "\(replay): \(versionsText)")
            }
        }
    }

    /// A finite real of any magnitude, from random bits.
    static func finiteReal(using generator: inout SeededRandom) -> Double {
        while true {
            let real = Double(bitPattern: UInt64.random(in: .min ... .max, using: &generator))
            if real.isFinite { return real }
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
