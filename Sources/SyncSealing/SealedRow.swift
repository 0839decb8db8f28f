import Foundation

/// The row a sealed value belongs to: its table, primary key and
/// partition, which the server stores in the clear to route it. A sealed
/// value opens only for the row it was sealed for: served as another
/// row's, another table's or another partition's, it does not open.
public struct SealedRow: Sendable, Hashable {
    public var table: String
    public var id: UUID
    public var partition: String

    public init(table: String, id: UUID, partition: String) {
        self.table = table
        self.id = id
        self.partition = partition
    }
}
