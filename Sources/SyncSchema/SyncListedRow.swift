import Foundation

/// A row of a table as a message lists it, at most once: a page's row or
/// tombstone, a push's change. Hashed by its id alone: ids are UUIDs, and
/// a table's name costs more to hash than its rows'.
struct SyncListedRow: Hashable {
    var table: String
    var id: UUID

    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
