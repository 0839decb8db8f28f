import Foundation
import SyncSchema

/// The answer the server gave to a change, kept with its mutation id: a
/// retry of the change (its answer was lost) gets the same answer and
/// changes nothing.
public struct SyncRecordedAnswer: Sendable, Equatable {
    public var key: SyncRowKey
    public var operation: SyncChange.Operation
    public var result: SyncPushResult
    public var answeredAt: Date

    public init(key: SyncRowKey, operation: SyncChange.Operation, result: SyncPushResult, answeredAt: Date) {
        self.key = key
        self.operation = operation
        self.result = result
        self.answeredAt = answeredAt
    }

    public var mutationID: UUID { result.mutationID }

    /// The recorded answer, for a retry of the change it answered; a
    /// change of another row or operation under the same mutation id is
    /// refused (a client that reuses mutation ids would lose changes).
    func answer(toRetryOf change: SyncChange) throws(SyncChangeError) -> SyncPushResult {
        guard key == SyncRowKey(table: change.row.table, id: change.row.id), operation == change.operation else {
            throw .mutationIDReused(change.mutationID, answeredFor: key)
        }
        return result
    }
}
