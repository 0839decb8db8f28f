import Foundation
import SyncSchema

/// The answer the server gave to a change, kept with its mutation id and
/// bound to the whole change, as payment APIs bind an idempotency key to
/// its request: a retry of the change (its answer was lost) gets the same
/// answer and changes nothing; any other change under the same mutation
/// id is refused (409), never answered with the first one's result.
public struct SyncRecordedAnswer: Sendable, Equatable {
    public var key: SyncRowKey
    public var operation: SyncChange.Operation
    /// The change answered (``SyncSchema/SyncChange/fingerprint``); nil
    /// for an answer kept before answers were bound to their values and
    /// base version, which binds its row and operation only.
    public var fingerprint: String?
    public var result: SyncPushResult
    public var answeredAt: Date

    /// The answer `result` to `change`, given at `answeredAt`.
    public init(_ result: SyncPushResult, to change: SyncChange, in table: String, answeredAt: Date) {
        self.init(key: SyncRowKey(table: table, id: change.row.id), operation: change.operation, fingerprint: change.fingerprint,
                  result: result, answeredAt: answeredAt)
    }

    public init(key: SyncRowKey, operation: SyncChange.Operation, fingerprint: String?, result: SyncPushResult, answeredAt: Date) {
        self.key = key
        self.operation = operation
        self.fingerprint = fingerprint
        self.result = result
        self.answeredAt = answeredAt
    }

    public var mutationID: UUID { result.mutationID }

    /// The recorded answer, for a retry of the change it answered; another
    /// change under the same mutation id (another row, operation, base
    /// version or values) is refused: a client that reuses mutation ids
    /// would otherwise lose the changes it sent last.
    func answer(toRetryOf change: SyncChange) throws(SyncChangeError) -> SyncPushResult {
        guard key == SyncRowKey(table: change.row.table, id: change.row.id), operation == change.operation,
              fingerprint == nil || fingerprint == change.fingerprint else {
            throw .mutationIDReused(change.mutationID, answeredFor: key)
        }
        return result
    }
}
