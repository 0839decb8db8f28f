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
    /// The JSON of the answer (`PlayersChangeResults.Result`), sorted keys.
    var result: String
    var appliedAt: Date

    init(_ result: PlayersChangeResults.Result, at date: Date) throws {
        mutationID = result.mutationID
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        self.result = String(decoding: try encoder.encode(result), as: UTF8.self)
        appliedAt = date
    }

    /// The recorded answer.
    func decodedResult() throws -> PlayersChangeResults.Result {
        try JSONDecoder().decode(PlayersChangeResults.Result.self, from: Data(result.utf8))
    }
}
