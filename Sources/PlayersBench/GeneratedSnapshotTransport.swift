import CipherSync
import Foundation
import PlayersProtocol

/// A players server in memory for the memory workload: it answers a
/// snapshot of `playerCount` players in pages of `pageSize`, each page
/// made when asked for, so that the benchmark process holds no more of
/// the snapshot than a client would; the catch-up delta is empty.
/// Players have pseudo-random UUIDs (a hash of their number), so that the
/// merge inserts them in random order, the slowest for its indexes.
struct GeneratedSnapshotTransport: HTTPTransport {
    let playerCount: Int
    let pageSize: Int

    /// The snapshot's cursor.
    var cursor: String { "\(playerCount)" }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let payload: PlayersPayload
        if query.contains(where: { $0.name == "since" }) {
            payload = PlayersPayload(kind: .delta, cursor: cursor, players: [])
        } else {
            let page = query.first { $0.name == "page" }.flatMap { Int($0.value ?? "") } ?? 0
            let range = page * pageSize..<min((page + 1) * pageSize, playerCount)
            let isLast = range.upperBound == playerCount
            payload = PlayersPayload(kind: .snapshot, complete: isLast, cursor: cursor,
                                     next: isLast ? nil : "/v1/players?page=\(page + 1)",
                                     players: range.map(Self.player))
        }
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: try payload.jsonData(), url: request.url)
    }

    /// Player number `index`: the same on every run.
    static func player(_ index: Int) -> PlayersPayload.PlayerEntry {
        // SplitMix64 of the number, twice: the 16 bytes of a version 4 UUID.
        func mix(_ value: UInt64) -> UInt64 {
            var z = value &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let high = mix(UInt64(index) &* 2), low = mix(UInt64(index) &* 2 &+ 1)
        var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) } + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return PlayersPayload.PlayerEntry(uuid: uuid, name: "Player \(index)", score: index % 1_000_000, version: Int64(index + 1))
    }
}
