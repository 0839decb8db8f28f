import Foundation

/// A row of a synced table as it travels between a device and the server:
/// its table, its primary key, and the values of the columns it carries,
/// each checked against the table's declaration (``SyncTable/row(id:values:carrying:)``).
///
/// A row may carry fewer columns than its table declares, and a column it
/// does not carry is *not sent*, never null: a client of an older
/// declaration does not know a column that a later one added, and the
/// receiver keeps that column's stored value instead of erasing it; a
/// change of a table merged by column carries only the columns it changed.
///
/// ```swift
/// let row = try note.row(id: id, values: ["notebook": .uuid(notebookID), "title": .text("Groceries")])
/// row.values["body"]   // nil: not sent, not null
/// ```
public struct SyncRow: Sendable, Hashable {
    /// The table's name.
    public let table: String
    /// The value of the table's primary key.
    public let id: UUID
    /// The values of the columns the row carries, by column name; the
    /// primary key is ``id``, never one of them.
    public let values: [String: SyncValue]

    /// A row whose values the declaration checked.
    init(table: String, id: UUID, values: [String: SyncValue]) {
        self.table = table
        self.id = id
        self.values = values
    }
}
