import Foundation

/// A row of an end-to-end table that the device refused
/// (``SyncSchema/SyncRowRefusal``), as a report and `--json` name it: its
/// table, its primary key, the refusal's kind and its sentence.
///
/// ```json
/// {"id":"5C2F0D9E-…","kind":"notAuthentic","message":"the sealed value of the note row 5C2F0D9E-… does not open for it: …","table":"note"}
/// ```
public struct SyncRefusedRow: Codable, Equatable, Sendable {
    public var table: String
    public var id: UUID
    /// ``SyncSchema/SyncRowRefusal/kind``: `notAuthentic`, `replayed`,
    /// `noKey`, …
    public var kind: String
    public var message: String

    public init(_ refusal: SyncRowRefusal) {
        table = refusal.table
        id = refusal.id
        kind = refusal.kind
        message = refusal.description
    }
}
