import Foundation
import SyncSchema

/// Why a batch of changes is refused, and nothing of it applied: the
/// client sent something that no rule can apply (the first three, answered
/// 422), or what the server stores cannot be read (the others).
public enum SyncChangeError: Error, Equatable, CustomStringConvertible {
    /// A change names a table that the server does not serve.
    case unknownTable(String)
    /// A row created (or brought back) without a value for a required
    /// column: a whole row is needed to create one.
    case incompleteRow(SyncRowError)
    /// A mutation id already answered for a change of another row or
    /// operation.
    case mutationIDReused(UUID, answeredFor: SyncRowKey)
    /// A stored row that the server's declaration refuses: the
    /// declaration lost a column or tightened a rule that stored rows
    /// break (a declaration may only add nullable columns).
    case storedRowRefused(SyncRowError)
    /// A stored row with neither values nor the date of its delete.
    case storedRowDamaged(SyncRowKey)
    /// A recorded answer whose row, operation or status cannot be read.
    case storedAnswerDamaged(UUID)

    public var description: String {
        switch self {
        case .unknownTable(let table):
            "the server does not sync a table named \(table): update the server's declaration first"
        case .incompleteRow(let error):
            "a row cannot be created from part of its columns: \(error)"
        case .mutationIDReused(let mutationID, let key):
            "the mutation id \(mutationID.uuidString) was answered before for another change (of \(key)): each change needs its own"
        case .storedRowRefused(let error):
            "a row the server stores does not pass its declaration (\(error)): a declaration may only add nullable columns"
        case .storedRowDamaged(let key):
            "the server's row of \(key) has neither values nor the date of its delete: its database is damaged"
        case .storedAnswerDamaged(let mutationID):
            "the answer the server recorded for the mutation id \(mutationID.uuidString) cannot be read: its database is damaged"
        }
    }
}
