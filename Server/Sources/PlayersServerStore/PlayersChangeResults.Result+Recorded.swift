import Foundation
import PlayersProtocol

extension PlayersChangeResults.Result {
    /// The answer to an applied change that gave the player (or its
    /// tombstone) `version`.
    public static func applied(_ change: PlayersChangeBatch.Change, version: Int64?) -> Self {
        .init(mutationID: change.mutationID, status: .applied, version: version)
    }

    /// The answer as a store records it with its mutation id: JSON, sorted
    /// keys.
    public func recordedJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// An answer recorded by ``recordedJSON()``.
    public init(recordedJSON: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(recordedJSON.utf8))
    }
}
