import SyncSealing
import Testing

/// A recovery key gives each device the same identity; a mistyped one is
/// refused, a wrong one gives another identity.
@Suite struct RecoveryKeyTests {
    @Test func theSameRecoveryKeyGivesTheSameIdentityOnEveryDevice() throws {
        let key = try RecoveryKey.random()
        let again = try RecoveryKey(text: key.text)
        #expect(try again.identity().publicKey == key.identity().publicKey)
        #expect(try again.identity().secretKey == key.identity().secretKey)
        #expect(try RecoveryKey.random().identity().publicKey != key.identity().publicKey)
    }

    @Test func itsTextIsReadWhateverTheCaseSpacesAndLineEnd() throws {
        let key = try RecoveryKey.random()
        #expect(key.text.hasPrefix("CDBR1-") && key.text.count == 6 + 9 * 9 - 1)
        let typed = key.text.lowercased().replacingOccurrences(of: "-", with: " - ") + "\n"
        #expect(try RecoveryKey(text: typed).identity().publicKey == key.identity().publicKey)
    }

    @Test func aMistypedDigitIsRefusedByTheChecksum() throws {
        let text = try RecoveryKey.random().text
        let index = text.index(text.startIndex, offsetBy: 10)
        let digit = text[index] == "0" ? "1" : "0"
        let mistyped = text.replacingCharacters(in: index...index, with: digit)
        #expect(throws: SealingError.invalidRecoveryKey("its checksum does not match: a digit is mistyped")) {
            try RecoveryKey(text: mistyped)
        }
    }

    @Test func aTextThatIsNotARecoveryKeyIsRefusedWithoutBeingQuoted() throws {
        for text in ["", "hunter2", "CDBR1-XYZ", "CDBR1-" + String(repeating: "G", count: 80)] {
            do {
                _ = try RecoveryKey(text: text)
                Issue.record("\(text) was read")
            } catch {
                guard case .invalidRecoveryKey(let reason) = error else { Issue.record("\(error)"); continue }
                #expect(text.isEmpty || !reason.contains(text))
            }
        }
    }

    @Test func aKeptSecretKeyGivesBackThePair() throws {
        let identity = try RecoveryKey.random().identity()
        #expect(try IdentityKeyPair(secretKey: identity.secretKey).publicKey == identity.publicKey)
        #expect(throws: SealingError.invalidKeyLength(kind: "secret key", length: 31)) {
            try IdentityKeyPair(secretKey: Array(identity.secretKey.prefix(31)))
        }
    }
}
