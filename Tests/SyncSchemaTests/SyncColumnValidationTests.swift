import Foundation
import PlayersShared
import SyncSchema
import TestSupport
import Testing

/// A column's rules on the values that enter it, and their sentences: the
/// Players declaration gives exactly the player validator's answers.
@Suite struct SyncColumnValidationTests {
    static let seeds = TestSeeds("COLUMN_RULES", test: "SyncColumnValidationTests", correctness: 20, long: 200)

    /// Characters that exercise every rule: white space at either end,
    /// control characters (C0, DEL, C1), combining marks, wide characters.
    static let alphabet: [String] = ["a", "Z", " ", "\t", "\n", "\u{07}", "\u{7F}", "\u{85}", "\u{9F}", "\u{A0}", "é", "e\u{301}", "🎲", "\u{301}\u{301}\u{301}", "漢"]

    @Test func playersDeclarationGivesThePlayerValidatorsAnswers() {
        for seed in Self.seeds.all {
            var random = SeededRandom(seed: seed)
            for _ in 0..<500 {
                let length = [0, 1, 2, 5, 99, 100, 101, 140][random.next(below: 8)]
                let name = (0..<length).map { _ in Self.alphabet[random.next(below: Self.alphabet.count)] }.joined()
                let replay = "seed \(seed) (\(Self.seeds.replay(seed))), name \(name.debugDescription)"
                switch (Result { () throws(PlayerValidationError) in try PlayerValidator.validName(name) },
                        Result { () throws(SyncValueError) in try PlayersSchema.name.validated(.text(name)) }) {
                case (.success(let valid), .success(let value)):
                    #expect(value == .text(valid), "\(replay)")
                case (.failure(let players), .failure(let column)):
                    #expect(players.description == column.description, "\(replay)")
                default:
                    Issue.record("the validator and the declaration disagree: \(replay)")
                }
            }
        }
    }

    @Test(arguments: [-1, 1_000_000_001, Int.min, Int.max])
    func playersScoreRuleRefusesWithThePlayerValidatorsSentence(_ score: Int) {
        let players = #expect(throws: PlayerValidationError.self) { try PlayerValidator.validateScore(score) }
        let column = #expect(throws: SyncValueError.self) { try PlayersSchema.score.validated(.integer(Int64(score))) }
        #expect(players?.description == column?.description)
    }

    @Test(arguments: [0, 1, 1_000_000_000])
    func playersScoreRuleAcceptsTheBounds(_ score: Int) throws {
        try PlayerValidator.validateScore(score)
        #expect(try PlayersSchema.score.validated(.integer(Int64(score))) == .integer(Int64(score)))
    }

    @Test func aRequiredColumnRefusesNullAndAnOptionalOneKeepsIt() throws {
        let required = SyncColumn(name: "title", type: .text, isRequired: true, maximumLength: 10)
        let optional = SyncColumn(name: "body", type: .text, maximumLength: 10)
        let error = #expect(throws: SyncValueError.self) { try required.validated(.null) }
        #expect(error?.problem == .missing)
        #expect(error?.description == "the title is missing: it must be a string of 1 to 10 characters and at most 40 UTF-8 bytes, without control characters")
        #expect(try optional.validated(.null) == .null)
        #expect(try optional.validated(.text("")) == .text(""))
        #expect(throws: SyncValueError.self) { try required.validated(.text("")) }
    }

    /// A server reads a stored -0.0 back as 0 (it is written `-0`), and
    /// SQLite stores it as 0 on a device: a real's hash must not tell them
    /// apart, or a device's digest never matches its server's.
    @Test func aRealsNegativeZeroIsZeroAndHashesAsZero() throws {
        let weight = SyncColumn(name: "weight", type: .real)
        guard case .real(let zero) = try weight.validated(.real(-0.0)) else { Issue.record("not a real"); return }
        #expect(zero.sign == .plus)
        let table = SyncTable(name: "parcel", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true), weight,
        ])
        let id = UUID()
        let hasher = SyncRowHasher()
        let negative = try table.row(id: id, values: ["weight": .real(-0.0)])
        let positive = try table.row(id: id, values: ["weight": .real(0)])
        #expect(hasher.hash(table, id: id, version: 1, values: negative.values) == hasher.hash(table, id: id, version: 1, values: positive.values))
    }

    @Test func textKeepsItsWhiteSpaceUnlessTrimmedAndItsControlCharactersWhenAllowed() throws {
        let body = SyncColumn(name: "body", type: .text, maximumLength: 20, allowsControlCharacters: true)
        #expect(try body.validated(.text(" line one\nline two ")) == .text(" line one\nline two "))
        let title = SyncColumn(name: "title", type: .text, maximumLength: 20)
        #expect((#expect(throws: SyncValueError.self) { try title.validated(.text("a\nb")) })?.problem == .controlCharacter("\n"))
        let tooLong = #expect(throws: SyncValueError.self) { try body.validated(.text(String(repeating: "x", count: 21))) }
        #expect(tooLong?.description == "the body is longer than 20 characters or 80 UTF-8 bytes: it must be a string of at most 20 characters and at most 80 UTF-8 bytes")
    }

    @Test func aValueOfAnotherTypeIsRefused() {
        let cases: [(SyncColumn, SyncValue, String)] = [
            (SyncColumn(name: "id", type: .uuid, isRequired: true), .text("not a uuid"), "the id is not a UUID: it must be a UUID"),
            (SyncColumn(name: "count", type: .integer), .real(1.5), "the count is not an integer: it must be an integer"),
            (SyncColumn(name: "done", type: .boolean), .integer(1), "the done is not true or false: it must be true or false"),
            (SyncColumn(name: "title", type: .text, maximumLength: 5), .integer(3),
             "the title is not text: it must be a string of at most 5 characters and at most 20 UTF-8 bytes, without control characters"),
        ]
        for (column, value, message) in cases {
            let error = #expect(throws: SyncValueError.self) { try column.validated(value) }
            #expect(error?.problem == .wrongType)
            #expect(error?.description == message)
        }
    }

    @Test func integersKeepToTheirBoundsAndRealsToFiniteNumbers() throws {
        let atLeastOne = SyncColumn(name: "rank", type: .integer, minimum: 1)
        #expect(try atLeastOne.validated(.integer(Int64.max)) == .integer(Int64.max))
        let error = #expect(throws: SyncValueError.self) { try atLeastOne.validated(.integer(0)) }
        #expect(error?.description == "the rank is 0, outside 1…: it must be an integer of at least 1")
        let weight = SyncColumn(name: "weight", type: .real)
        #expect(try weight.validated(.real(-0.5)) == .real(-0.5))
        #expect((#expect(throws: SyncValueError.self) { try weight.validated(.real(.nan)) })?.problem == .notFinite)
        #expect((#expect(throws: SyncValueError.self) { try weight.validated(.real(.infinity)) })?.problem == .notFinite)
    }
}
