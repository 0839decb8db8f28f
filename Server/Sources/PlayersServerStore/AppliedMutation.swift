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
    /// The answer and its change, as ``RecordedAnswer/json()`` writes them.
    var result: String
    var appliedAt: Date

    init(_ answer: RecordedAnswer, at date: Date) throws {
        mutationID = answer.result.mutationID
        result = try answer.json()
        appliedAt = date
    }

    /// The recorded answer.
    func decodedAnswer() throws -> RecordedAnswer {
        try RecordedAnswer(json: result)
    }
}
