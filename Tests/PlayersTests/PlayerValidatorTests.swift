import Foundation
import Players
import PlayersShared
import Testing

/// The one rule for names and scores, shared by the command line, the
/// server and the sync.
@Suite struct PlayerValidatorTests {
    @Test(arguments: ["Arthur", "Zoé", "李小龙", "👩‍👩‍👧 family", "O'Brien-Smith", String(repeating: "x", count: 100)])
    func ordinaryNamesPass(_ name: String) throws {
        #expect(try PlayerValidator.validName(name) == name)
    }

    @Test func surroundingWhiteSpaceIsTrimmed() throws {
        #expect(try PlayerValidator.validName("  Arthur Dent ") == "Arthur Dent")
    }

    @Test(arguments: [0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9F] as [UInt32])
    func everyControlCharacterIsRefused(_ value: UInt32) {
        let scalar = Unicode.Scalar(value)!
        #expect(throws: PlayerValidationError.controlCharacter(scalar)) {
            try PlayerValidator.validName("Arthur" + String(Character(scalar)) + "Dent")
        }
    }

    @Test func aTrailingNewlineIsRefusedNotTrimmed() {
        #expect(throws: PlayerValidationError.controlCharacter("\n")) { try PlayerValidator.validName("Arthur\n") }
    }

    @Test func anANSIEscapeSequenceIsRefused() {
        #expect(throws: PlayerValidationError.controlCharacter("\u{1B}")) { try PlayerValidator.validName("\u{1B}[2JArthur") }
    }

    @Test func charactersAroundTheControlRangesPass() throws {
        // U+00A0 (after C1) is white space: trimmed, not refused.
        #expect(try PlayerValidator.validName("A\u{A0}B ~") == "A\u{A0}B ~")
    }

    @Test func aHundredAndOneCharactersAreTooMany() {
        #expect(throws: PlayerValidationError.nameTooLong) { try PlayerValidator.validName(String(repeating: "x", count: 101)) }
    }

    @Test func aMegabyteOfSpacesIsTooLongNotEmpty() {
        #expect(throws: PlayerValidationError.nameTooLong) { try PlayerValidator.validName(String(repeating: " ", count: 1_000_000) + "A") }
    }

    @Test func oneCharacterOfFiveThousandCombiningMarksIsTooLong() {
        let name = "a" + String(repeating: "\u{301}", count: 5000)
        #expect(name.count == 1)
        #expect(throws: PlayerValidationError.nameTooLong) { try PlayerValidator.validName(name) }
    }

    @Test func fourHundredBytesPassAndOneMoreDoesNot() throws {
        // 100 characters of 4 bytes each.
        let emoji = String(repeating: "😀", count: 100)
        #expect(emoji.utf8.count == 400)
        #expect(try PlayerValidator.validName(emoji) == emoji)
        #expect(throws: PlayerValidationError.nameTooLong) { try PlayerValidator.validName(String(repeating: "😀", count: 99) + "é\u{301}\u{301}") }
    }

    @Test(arguments: ["", "   ", "\u{A0}"])
    func emptyNamesAreRefused(_ name: String) {
        #expect(throws: PlayerValidationError.emptyName) { try PlayerValidator.validName(name) }
    }

    @Test func scoresOutsideTheRangeAreRefused() throws {
        try PlayerValidator.validateScore(0)
        try PlayerValidator.validateScore(1_000_000_000)
        #expect(throws: PlayerValidationError.scoreOutOfRange(-1)) { try PlayerValidator.validateScore(-1) }
        #expect(throws: PlayerValidationError.scoreOutOfRange(1_000_000_001)) { try PlayerValidator.validateScore(1_000_000_001) }
    }

    @Test func theErrorSaysWhatIsWrongAndWhatIsAccepted() {
        #expect(PlayerValidationError.controlCharacter("\u{1B}").description
            == "the name contains a control character (U+001B): it must be a string of 1 to 100 characters and at most 400 UTF-8 bytes, without control characters")
        #expect(PlayerValidationError.scoreOutOfRange(-5).description == "the score is -5, outside 0…1000000000: it must be an integer from 0 to 1000000000")
    }
}
