import Foundation

/// An answer that Players' server of a release before the sync engine kept
/// for a change of `POST /v1/changes` (its table `appliedMutation`), read
/// when the engine takes that database in (``PlayersServerAdoption``): the
/// result, and the change answered, which answers of the earliest releases
/// lack (they kept the bare result).
struct EarlierRecordedAnswer: Decodable {
    struct Result: Decodable {
        enum Status: String, Decodable {
            case applied, conflict
        }

        var mutationID: UUID
        var status: Status
        var version: Int64?
        /// A conflict's live player on the server.
        var player: Player?
    }

    struct Player: Decodable {
        var uuid: UUID
        var name: String
        var score: Int64
        var version: Int64
    }

    struct Change: Decodable {
        enum Kind: String, Decodable {
            case save, delete
        }

        var uuid: UUID
        var kind: Kind
    }

    var result: Result
    var change: Change?

    /// An answer as the earlier server kept it: `{"change": …, "result": …}`,
    /// or the bare result.
    init(json: String) throws {
        let data = Data(json.utf8)
        if let recorded = try? JSONDecoder().decode(Self.self, from: data) {
            self = recorded
        } else {
            result = try JSONDecoder().decode(Result.self, from: data)
            change = nil
        }
    }
}
