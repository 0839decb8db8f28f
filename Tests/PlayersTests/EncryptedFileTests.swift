import CipherDB
import Foundation
import Players
import PlayersFiles
import PlayersShared
import Synchronization
import Testing

@Suite struct EncryptedFileTests {
    static let json = Data(#"{"secret":"Zaphod"}"#.utf8)
    static let passphrase = DatabaseKeySource.passphrase { Data("pass".utf8) }
    static let unreadable = "the key is wrong, or the file is not an encrypted players export, or it was modified: give the key it was exported with"

    /// Files written before version 2, by the release before it, kept here
    /// as they were written: a raw-key file, keyed with the raw key itself,
    /// and a passphrase file ("old passphrase"); and a version 2 raw-key
    /// file (HKDF), written by the last release that encrypted with
    /// swift-crypto, before OpenSSL's libcrypto replaced it.
    static let earlierKey = Data(hex: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")!
    static let earlierRawKeyExport = Data(base64Encoded: "Q0RCRU5DMDEAAAAAAAAAAAAAAAAAAAAAAAAAAAAEgoavgFTpo96yAz/H+MRTLbRIKUd4qcdIBUlofcLOmWMJ0UHjShJl5vUMX/7phaqBBqJHMx2x3Kp+85sXkTWSSvv42P++SLbdZ4jAtIkuBguIK/lV+9iqt41m61rfnndKzn3pZ4D6b9CY65snq/mqmqmk8di8m6nKWD48bhc1gw+THrOywqfm7wraOYhhCRbi35llOeracqxyK0zKYTd2A3CR4NNlxgTluuuSap/jwbf+T1LZruDWsJ/duMyc120VjVatOoI4EHllfy9QqmWB1mBi8zBImGT20/Bj4WknjCBMDEF0sTopsqObDx4Xo61Xx1jo7dm9250wFWGut9t4234ivF4=")!
    static let earlierHKDFExport = Data(base64Encoded: "Q0RCRU5DMDICAAAAAHiNmy4zIqm6Pujh5OVYn3+hf8JyjjePmLpLTAxT2gfo0zwLeGA9InDZV4Bn12yWCQHBytLop7lJ9WlNnAm/ygpZ2rRnlTL0tNFa4iNXHsBdiGeUQCO+AeDsdVJkjk4YOf8GIIHvBxQT9n1RlLG4IocH411nj3Hn4odX+tut9cEBR6KCdZcVGlQB1Hy2zId3wkL8b6OnjaWQSZmwkV4Hn9tieOED9huZFW0Osu+3q9JnLPA5jzqgyK8bvH/tUlbKwEdTK1CVmZ5dq7aZqu5pkuI4ME0zTMcHId1EIkaz6UNeJCUuNwlGujspVMbjBCHQ1X48ToAm7yXyGp4sDsyWHt2ke8VucSiXFyJD/a2h39gVmBVtYcM=")!
    static let earlierPassphraseExport = Data(base64Encoded: "Q0RCRU5DMDEBAAknwK1i2GiwjDYr9+0pjX2ZRT2fAdLiRBFUFV7zSgjQ9id+Xn2L89lg+Hf+whiOk+Ushp8v0Vo+pz7ND7ZfpK+qeoUKU6QD1iCCcrgBOq3LzK6nZZffPDkYl/6YE+VRKJJmXblDErCvL8hlESFs9nMQU7HImJWdd5wvIgeyQKkMCDL5Q5dENvQh+eJd0FddDzzazQNs2IE+OiSQkUzc0ER1dLDgIaq0UG+XX3Zzw7WRJXynr8ZN5GefRSvdi4eF1vlOlNknQCbm+zAmNCYGCTlq9GCQYp3QTH8oa3Hz28sF3A2S/BDWpvuqE+3KWmEmFPFikRMCenwLlYkiAHmnWyqelB7MrO+kS23M9bwn3BhNyVi0iru3yNw=")!

    @Test func rawKeysAndPassphrasesRoundTrip() throws {
        let key = Data(repeating: 7, count: 32)
        let sealed = try EncryptedFile.seal(Self.json, key: .rawKey { key })
        #expect(sealed.range(of: Data("Zaphod".utf8)) == nil)
        #expect(try EncryptedFile.open(sealed, key: .rawKey { key }) == Self.json)

        let withPassphrase = try EncryptedFile.seal(Self.json, key: Self.passphrase)
        #expect(try EncryptedFile.open(withPassphrase, key: Self.passphrase) == Self.json)
        // A random salt and nonce: the same plaintext never encrypts the same way.
        #expect(try EncryptedFile.seal(Self.json, key: Self.passphrase) != withPassphrase)
        #expect(try EncryptedFile.seal(Self.json, key: .rawKey { key }) != sealed)
    }

    @Test func wrongKeysAndModifiedFilesAreRefused() throws {
        let sealed = try EncryptedFile.seal(Self.json, key: Self.passphrase)
        #expect(throws: PlayersFileError.exportUnreadable) { try EncryptedFile.open(sealed, key: .passphrase { Data("wrong".utf8) }) }
        #expect(throws: PlayersFileError.self) { try EncryptedFile.open(sealed, key: .rawKey { Data(count: 32) }) }
        var tampered = sealed
        tampered[tampered.count - 20] ^= 1
        #expect(throws: PlayersFileError.exportUnreadable) { try EncryptedFile.open(tampered, key: Self.passphrase) }
        var header = sealed
        header[12] ^= 1 // the rounds, still in the accepted range: authenticated
        #expect(throws: PlayersFileError.self) { try EncryptedFile.open(header, key: Self.passphrase) }
        #expect(throws: PlayersFileError.self) { try EncryptedFile.open(Self.json, key: Self.passphrase) }
    }

    /// Rounds out of range, a truncated file, another magic or version, an
    /// unknown key derivation: one error, before any key derivation.
    @Test func malformedHeadersGiveTheOneError() throws {
        let sealed = try EncryptedFile.seal(Self.json, key: Self.passphrase)
        func withRounds(_ rounds: UInt32) -> Data {
            var file = sealed
            file.replaceSubrange(9..<13, with: [UInt8(rounds >> 24), UInt8(rounds >> 16 & 0xFF), UInt8(rounds >> 8 & 0xFF), UInt8(rounds & 0xFF)])
            return file
        }
        func withByte(_ index: Int, _ value: UInt8) -> Data {
            var file = sealed
            file[index] = value
            return file
        }
        let malformed: [(String, Data)] = [
            ("rounds 0", withRounds(0)),
            ("rounds below the range", withRounds(EncryptedFile.passphraseRounds - 1)),
            ("rounds above the range", withRounds(2_000_001)),
            ("truncated header", sealed.prefix(20)),
            ("header without a nonce and tag", sealed.prefix(40)),
            ("empty file", Data()),
            ("wrong magic", withByte(0, UInt8(ascii: "X"))),
            ("unknown version", withByte(7, UInt8(ascii: "9"))),
            ("a passphrase in version 2", withByte(7, UInt8(ascii: "2"))),
            ("unknown key derivation", withByte(8, 7)),
            ("a raw key derivation in version 1 with rounds", withByte(8, 0)),
        ]
        // PBKDF2 needs the passphrase: a header refused before any key
        // derivation never asks for it. Counted, not timed.
        let passphrase = CountedPassphrase("pass")
        #expect(try EncryptedFile.open(sealed, key: passphrase.key) == Self.json)
        #expect(passphrase.reads == 1)
        for (name, file) in malformed {
            do {
                _ = try EncryptedFile.open(file, key: passphrase.key)
                Issue.record("\(name): opened")
            } catch {
                #expect("\(error)" == Self.unreadable, "\(name)")
            }
        }
        #expect(passphrase.reads == 1)
    }

    @Test func rawKeyExportsAreNotKeyedWithTheRawKeyItself() throws {
        func opensWithTheRawKeyItself(_ file: Data) -> Bool {
            (try? AESGCM.open(file.suffix(from: 29), key: Self.earlierKey, authenticating: file.prefix(29))) != nil
        }
        // What this test catches: the files of the release before did.
        #expect(opensWithTheRawKeyItself(Self.earlierRawKeyExport))
        let sealed = try EncryptedFile.seal(Self.json, key: .rawKey { Self.earlierKey })
        #expect(sealed.prefix(9) == Data("CDBENC02".utf8) + [2])
        #expect(!opensWithTheRawKeyItself(sealed))
    }

    @Test func exportsOfEarlierReleasesStillOpen() throws {
        let key = Self.earlierKey
        for (file, source) in [(Self.earlierRawKeyExport, DatabaseKeySource.rawKey { key }),
                               (Self.earlierHKDFExport, .rawKey { key }),
                               (Self.earlierPassphraseExport, .passphrase { Data("old passphrase".utf8) })] {
            let payload = try PlayersPayload.decode(EncryptedFile.open(file, key: source))
            #expect(payload.players.map(\.name) == ["Arthur Dent"])
        }
    }

    @Test func theKindOfKeyIsNamedWhenItDoesNotMatch() throws {
        let withRawKey = try EncryptedFile.seal(Self.json, key: .rawKey { Data(count: 32) })
        let error = #expect(throws: PlayersFileError.self) { try EncryptedFile.open(withRawKey, key: Self.passphrase) }
        #expect(error == .exportNeedsKeyFile)
        #expect(error?.description == "the file was encrypted with a raw key, not a passphrase: give the key file instead")
    }

    @Test func payloadsOfAnotherProtocolVersionAreRefused() throws {
        let payload = PlayersPayload(kind: .snapshot, players: [.init(uuid: UUID(), name: "A", score: 1, version: 3)])
        #expect(try PlayersPayload.decode(payload.jsonData()) == payload)
        let future = Data(#"{"protocolVersion":2,"kind":"snapshot","complete":true,"players":[],"tombstones":[]}"#.utf8)
        #expect(throws: PlayersPayloadError(path: "$.protocolVersion", "version 2, and this program reads version 1 only")) {
            try PlayersPayload.decode(future)
        }
    }
}

/// A passphrase that counts how often it is read. `Sendable` through its
/// mutex.
final class CountedPassphrase: Sendable {
    private let passphrase: Data
    private let count = Mutex(0)

    init(_ passphrase: String) {
        self.passphrase = Data(passphrase.utf8)
    }

    var reads: Int { count.withLock { $0 } }

    var key: DatabaseKeySource {
        .passphrase { [self] in
            count.withLock { $0 += 1 }
            return passphrase
        }
    }
}
