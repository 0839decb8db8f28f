import Foundation
import PlayersShared
import SyncSchema

extension SyncPage {
    /// A page of `GET /v1/sync/rows` from a server of Players' table.
    public static func players(_ body: String) throws -> SyncPage {
        try decode(Data(body.utf8), schema: PlayersSchema.schema)
    }
}
