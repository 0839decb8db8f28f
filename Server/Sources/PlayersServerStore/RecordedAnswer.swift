import Foundation
import PlayersProtocol

/// The answer a store gave to a change of `POST /v1/changes`, recorded
/// with its mutation id and bound to the change it answered, as payment
/// APIs bind an idempotency key to its request: a retry of that change
/// gets the answer again; the same mutation id with another change is
/// refused (``MutationIDReusedError``), never answered with another
/// change's result. Both stores record it as ``json()``.
public struct RecordedAnswer: Codable, Equatable, Sendable {
    public var result: PlayersChangeResults.Result
    /// The change answered; nil for an answer recorded before answers were
    /// bound to their change, which any change with the id gets.
    public var change: PlayersChangeBatch.Change?

    public init(_ result: PlayersChangeResults.Result, for change: PlayersChangeBatch.Change) {
        self.result = result
        self.change = change
    }

    /// The answer as a store records it: JSON, sorted keys.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// An answer recorded by ``json()``, or before, as the bare result.
    public init(json: String) throws {
        let data = Data(json.utf8)
        if let recorded = try? JSONDecoder().decode(Self.self, from: data) {
            self = recorded
        } else {
            result = try JSONDecoder().decode(PlayersChangeResults.Result.self, from: data)
            change = nil
        }
    }

    /// The answer to `change`, which has this answer's mutation id: the
    /// recorded result if it is the change answered.
    public func answer(toRetryOf change: PlayersChangeBatch.Change) throws(MutationIDReusedError) -> PlayersChangeResults.Result {
        guard self.change == nil || self.change == change else {
            throw MutationIDReusedError(mutationID: change.mutationID)
        }
        return result
    }
}

/// A batch named a mutation id that an earlier change, another one, was
/// answered with: the batch is refused whole (409).
public struct MutationIDReusedError: Error, Equatable, Sendable, CustomStringConvertible {
    public var mutationID: UUID

    public init(mutationID: UUID) {
        self.mutationID = mutationID
    }

    public var description: String {
        "the mutation id \(mutationID.uuidString) was used for another change: a mutation id names one change, "
            + "so make a new one for each change"
    }
}
