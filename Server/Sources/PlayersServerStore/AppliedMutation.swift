import CipherDB
import Foundation
import PlayersProtocol

/// A change of `POST /v1/changes` that the server answered, by its mutation
/// id, with the answer it gave: a retry of the change gets this answer and
/// changes nothing. Kept as long as tombstones.
struct AppliedMutation: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "appliedMutation"
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    var mutationID: UUID
    /// The answer, as `PlayersChangeResults.Result.recordedJSON()` writes it.
    var result: String
    var appliedAt: Date

    init(_ result: PlayersChangeResults.Result, at date: Date) throws {
        mutationID = result.mutationID
        self.result = try result.recordedJSON()
        appliedAt = date
    }

    /// The recorded answer.
    func decodedResult() throws -> PlayersChangeResults.Result {
        try PlayersChangeResults.Result(recordedJSON: result)
    }
}
