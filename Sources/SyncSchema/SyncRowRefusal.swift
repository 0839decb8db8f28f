import Foundation

/// Why a device refuses a row of an end-to-end table that a server sent:
/// it keeps its previous value of the row, reports the refusal, and merges
/// the sync's other rows. Each is what a hostile or broken server could
/// send; none quotes a key or a sealed value.
public enum SyncRowRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The row came without its sealed value, or with a sealed column in
    /// the clear: a server that treats the table as not end-to-end (a
    /// downgrade).
    case notSealed(table: String, id: UUID)
    /// Its sealed value is not one this release reads.
    case malformed(table: String, id: UUID, String)
    /// Its partition could not be found from its clear columns.
    case noPartition(table: String, id: UUID)
    /// The device holds no key of its partition and epoch: a key not
    /// shared with this user, or not received yet.
    case noKey(table: String, id: UUID, partition: String, epoch: UInt32)
    /// It does not open for this row under its partition's key: altered,
    /// moved from another row, table or partition, or relabelled.
    case notAuthentic(table: String, id: UUID)
    /// It opens, but what it holds breaks the declaration.
    case breaksDeclaration(table: String, id: UUID, SyncRowError)
    /// It opens, but is older than the value of the row the device has
    /// seen (a lower sealed counter): an earlier value served again.
    case replayed(table: String, id: UUID)

    /// The row's table.
    public var table: String {
        switch self {
        case .notSealed(let table, _), .malformed(let table, _, _), .noPartition(let table, _), .noKey(let table, _, _, _),
             .notAuthentic(let table, _), .breaksDeclaration(let table, _, _), .replayed(let table, _):
            table
        }
    }

    /// The row's primary key.
    public var id: UUID {
        switch self {
        case .notSealed(_, let id), .malformed(_, let id, _), .noPartition(_, let id), .noKey(_, let id, _, _),
             .notAuthentic(_, let id), .breaksDeclaration(_, let id, _), .replayed(_, let id):
            id
        }
    }

    /// The refusal's kind, as `--json` names it: `notSealed`, `malformed`,
    /// `noPartition`, `noKey`, `notAuthentic`, `breaksDeclaration`,
    /// `replayed`.
    public var kind: String {
        switch self {
        case .notSealed: "notSealed"
        case .malformed: "malformed"
        case .noPartition: "noPartition"
        case .noKey: "noKey"
        case .notAuthentic: "notAuthentic"
        case .breaksDeclaration: "breaksDeclaration"
        case .replayed: "replayed"
        }
    }

    public var description: String {
        switch self {
        case .notSealed(let table, let id):
            "the server sent the \(table) row \(id.uuidString) unsealed, though the table is end-to-end: it was refused"
        case .malformed(let table, let id, let reason):
            "the sealed value of the \(table) row \(id.uuidString) is not valid (\(reason)): it was refused"
        case .noPartition(let table, let id):
            "the \(table) row \(id.uuidString) names no partition: it was refused"
        case .noKey(let table, let id, let partition, let epoch):
            "this device has no key of epoch \(epoch) of \(partition) to open the \(table) row \(id.uuidString): it was not opened"
        case .notAuthentic(let table, let id):
            "the sealed value of the \(table) row \(id.uuidString) does not open for it: it was altered or moved, and was refused"
        case .breaksDeclaration(let table, let id, let error):
            "the \(table) row \(id.uuidString) opens, but breaks the declaration (\(error)): it was refused"
        case .replayed(let table, let id):
            "the server sent an older sealed value of the \(table) row \(id.uuidString) than this device has seen: it was refused"
        }
    }
}
