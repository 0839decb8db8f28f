import CipherDB
import Foundation
import Players
import PlayersProtocol
import PlayersStorage
import Testing

/// The digest of players (``PlayersDigest``) that servers of the players
/// protocol send: a fixed hash. (A device's digests are the sync
/// engine's: SyncDigestsTests.)
@Suite struct PlayersDigestTests {
    static let uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

    @Test func theHashOfAPlayerIsFixed() {
        // Clients and servers of different versions compare digests: the
        // hash never changes. The first 8 bytes of the MD5 of
        // "00000000-0000-0000-0000-000000000001|5|42|Zoé" (md5sum), and
        // of a text of several MD5 blocks (Python's hashlib).
        #expect(PlayersDigest.hash(uuid: Self.uuid, name: "Zoé", score: 42, version: 5) == 0x8603_32c2_0d4e_74ab)
        #expect(PlayersDigest.hash(uuidText: Self.uuid.uuidString.lowercased(), name: "Zoé", score: 42, version: 5) == 0x8603_32c2_0d4e_74ab)
    }

    @Test func theHashOfALongPlayerIsMD5sToo() {
        // 194 bytes: four blocks of MD5, a name beyond ASCII, large numbers.
        let name = String(repeating: "Émile ⚽ ", count: 12)
        #expect(PlayersDigest.hash(uuid: Self.uuid, name: name, score: 1_000_000_000, version: 1_234_567_890_123) == 0x81a8_5cd1_a35c_5623)
        // One hasher for many players gives each the same hash as alone.
        let hasher = PlayersDigestHasher()
        for _ in 0..<3 {
            #expect(hasher.hash(uuidText: Self.uuid.uuidString, name: "Zoé", score: 42, version: 5) == 0x8603_32c2_0d4e_74ab)
            #expect(hasher.hash(uuidText: Self.uuid.uuidString, name: name, score: 1_000_000_000, version: 1_234_567_890_123)
                == 0x81a8_5cd1_a35c_5623)
        }
    }

    @Test func togglingAPlayerTwiceLeavesTheDigestAsItWas() {
        var digest = PlayersDigest.empty
        digest.toggle(uuid: Self.uuid, name: "Zoé", score: 42, version: 5)
        #expect(digest == PlayersDigest(players: 1, checksum: "860332c20d4e74ab"))
        digest.toggle(uuid: Self.uuid, name: "Zoé", score: 42, version: 5, sign: -1)
        #expect(digest == .empty)
        #expect(PlayersDigest.empty.checksum == "0000000000000000")
    }

    @Test func aChecksumIsSixteenLowercaseHexadecimalDigits() {
        #expect(PlayersDigest(players: 0, checksum: "860332c20d4e74ab").checksumValue == 0x8603_32c2_0d4e_74ab)
        for bad in ["860332C20D4E74AB", "860332c20d4e74a", "860332c20d4e74abc", "+60332c20d4e74ab", ""] {
            #expect(PlayersDigest(players: 0, checksum: bad).checksumValue == nil, "\(bad)")
        }
    }
}
