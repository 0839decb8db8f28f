import Foundation
import PlayersOnServer
import SyncServer
import Testing

/// The order in which Players' earlier tables are taken in, each store's
/// dialect reading them alike: the players, then the tombstones, then the
/// answers, each a chunk at a time in key order.
@Suite struct PlayersAdoptionOrderTests {
    let keys = (0..<PlayersServerAdoption.chunkSize).map { String(format: "%08d", $0) }

    @Test func aFullChunkIsFollowedByTheSameTableAfterItsLastKey() {
        let chunk = PlayersServerAdoption.chunk(.tombstones, keys: keys)
        #expect(chunk.next == SyncAdoptedChunk.Position(part: PlayersServerAdoption.Part.tombstones.rawValue, after: keys.last))
        #expect(PlayersServerAdoption.Part(chunk.next) == .tombstones)
    }

    @Test func aShortChunkIsFollowedByTheNextTableFromItsFirstAndTheLastAnswersByNothing() {
        let afterPlayers = PlayersServerAdoption.chunk(.players, keys: ["a"]).next
        #expect(afterPlayers == SyncAdoptedChunk.Position(part: PlayersServerAdoption.Part.tombstones.rawValue, after: nil))
        #expect(PlayersServerAdoption.Part(PlayersServerAdoption.chunk(.tombstones, keys: []).next) == .answers)
        #expect(PlayersServerAdoption.chunk(.answers, keys: Array(keys.prefix(1))).next == nil)
        #expect(PlayersServerAdoption.Part(nil) == .players, "the first chunk")
    }
}
