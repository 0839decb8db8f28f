import CipherSync
import Foundation
import PlayersProtocol

/// A players server in memory for the memory workload: it answers a
/// snapshot of `playerCount` players in pages of `pageSize`, each page
/// made when asked for, so that the benchmark process holds no more of
/// the snapshot than a client would; the catch-up delta is empty.
/// Players come in uuid order, as a server lists them.
struct GeneratedSnapshotTransport: HTTPTransport {
    let playerCount: Int
    let pageSize: Int

    /// The snapshot's cursor.
    var cursor: String { Self.cursor(at: playerCount) }

    /// The cursor at `counter` of the benchmark's server, whose history
    /// never changes.
    static func cursor(at counter: Int) -> String {
        PlayersCursor(counter: Int64(counter), epoch: "0000000000000001", server: server).description
    }

    static let server = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

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

    /// Player number `index`: the same on every run, its uuid after the
    /// uuids of the players before it.
    static func player(_ index: Int) -> PlayersPayload.PlayerEntry {
        // The number in the first 6 bytes (big-endian), then the version
        // and variant of a version 4 UUID, then the number again.
        let number = (0..<6).reversed().map { UInt8(truncatingIfNeeded: index >> (8 * $0)) }
        let tail = (0..<7).map { UInt8(truncatingIfNeeded: index >> (8 * $0)) }
        let bytes = number + [0x40, 0x00, 0x80] + tail
        let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return PlayersPayload.PlayerEntry(uuid: uuid, name: "Player \(index)", score: index % 1_000_000, version: Int64(index + 1))
    }
}
