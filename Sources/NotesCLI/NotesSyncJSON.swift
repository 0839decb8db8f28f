import CipherSync
import Foundation
import SyncSchema

/// `notes sync --json`: the pull's fields (``CipherSync/SyncReport``),
/// with the rows the device refused among those that waited for a key,
/// in the push's answers and in the pull (`refusedRows`), then `pushed`, `conflicts`, `pending`,
/// `waitingForKeys` and the key exchange (`keys`): one JSON object,
/// every field in every outcome.
///
/// ```json
/// {"bytesReceived":412,…,"keys":{"made":0,"opened":0,"received":1,…},"pending":0,"pushed":0,"refusedRows":[],…}
/// ```
struct NotesSyncJSON: Encodable {
    let synced: SyncPushPullReport

    init(_ synced: SyncPushPullReport) {
        self.synced = synced
    }

    func encode(to encoder: any Encoder) throws {
        var pull = synced.pull
        pull.refusedRows = synced.refusedRows
        try pull.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(synced.push.counts.applied, forKey: .pushed)
        try container.encode(synced.push.counts.conflicts, forKey: .conflicts)
        try container.encode(synced.push.pending, forKey: .pending)
        try container.encode(synced.push.waitingForKeys, forKey: .waitingForKeys)
        try container.encode(synced.keys, forKey: .keys)
    }

    /// Sorted keys, so that its lines compare.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    private enum CodingKeys: String, CodingKey {
        case pushed, conflicts, pending, waitingForKeys, keys
    }
}
