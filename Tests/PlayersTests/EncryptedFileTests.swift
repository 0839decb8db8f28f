import Foundation
import Players
import PlayersFiles
import Testing

@Suite struct EncryptedFileTests {
    static let json = Data(#"{"secret":"Zaphod"}"#.utf8)

    @Test func rawKeysAndPassphrasesRoundTrip() throws {
        let key = Data(repeating: 7, count: 32)
        let sealed = try EncryptedFile.seal(Self.json, key: .rawKey { key })
        #expect(sealed.range(of: Data("Zaphod".utf8)) == nil)
        #expect(try EncryptedFile.open(sealed, key: .rawKey { key }) == Self.json)

        let withPassphrase = try EncryptedFile.seal(Self.json, key: .passphrase { "pass" })
        #expect(try EncryptedFile.open(withPassphrase, key: .passphrase { "pass" }) == Self.json)
        // A random salt and nonce: the same plaintext never encrypts the same way.
        #expect(try EncryptedFile.seal(Self.json, key: .passphrase { "pass" }) != withPassphrase)
    }

    @Test func wrongKeysAndModifiedFilesAreRefused() throws {
        let sealed = try EncryptedFile.seal(Self.json, key: .passphrase { "pass" })
        #expect(throws: DatabaseFileError.self) { try EncryptedFile.open(sealed, key: .passphrase { "wrong" }) }
        #expect(throws: DatabaseFileError.self) { try EncryptedFile.open(sealed, key: .rawKey { Data(count: 32) }) }
        var tampered = sealed
        tampered[tampered.count - 20] ^= 1
        #expect(throws: DatabaseFileError.self) { try EncryptedFile.open(tampered, key: .passphrase { "pass" }) }
        var header = sealed
        header[10] ^= 1 // the rounds: authenticated
        #expect(throws: DatabaseFileError.self) { try EncryptedFile.open(header, key: .passphrase { "pass" }) }
        #expect(throws: DatabaseFileError.self) { try EncryptedFile.open(Self.json, key: .passphrase { "pass" }) }
    }

    @Test func payloadsOfAnotherProtocolVersionAreRefused() throws {
        let payload = PlayersPayload(kind: .snapshot, players: [.init(uuid: UUID(), name: "A", score: 1, version: 3)])
        #expect(try PlayersPayload.decode(payload.jsonData()) == payload)
        let future = Data(#"{"protocolVersion":2,"kind":"snapshot","complete":true,"players":[],"tombstones":[]}"#.utf8)
        #expect(throws: DatabaseFileError.self) { try PlayersPayload.decode(future) }
    }
}
