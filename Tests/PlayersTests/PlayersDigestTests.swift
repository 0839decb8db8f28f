import CipherDB
import Foundation
import Players
import PlayersProtocol
import Testing

/// The digest of players (``PlayersDigest``) that servers send and
/// clients compare: a fixed hash, and the digest of a database's synced
/// players.
@Suite struct PlayersDigestTests {
    static let uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!

    @Test func theHashOfAPlayerIsFixed() {
        // Clients and servers of different versions compare digests: the
        // hash never changes. The first 8 bytes of the MD5 of
        // "00000000-0000-0000-0000-000000000001|5|42|Zoé" (md5sum).
        #expect(PlayersDigest.hash(uuid: Self.uuid, name: "Zoé", score: 42, version: 5) == 0x8603_32c2_0d4e_74ab)
        #expect(PlayersDigest.hash(uuidText: Self.uuid.uuidString.lowercased(), name: "Zoé", score: 42, version: 5) == 0x8603_32c2_0d4e_74ab)
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

    @Test func theDigestOfADatabaseCountsOnlyItsSyncedPlayers() async throws {
        let appDatabase = try AppDatabase.empty()
        try await appDatabase.dbWriter.write { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score, version) VALUES (?, 'Zoé', 42, 5)", arguments: [Self.uuid.uuidString])
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, 'Local', 1)", arguments: [UUID().uuidString])
        }
        let digest = try await appDatabase.reader.read { db in try PlayersDigest.ofSyncedPlayers(db) }
        #expect(digest == PlayersDigest(players: 1, checksum: "860332c20d4e74ab"))
    }
}
