import Foundation

/// A row a server listed in a page that the device keeps as it is: a row
/// of an end-to-end table whose sealed value it refused, or holds no key
/// to open yet (``CipherDB/Database/stageSyncPage(rows:tombstones:kept:schema:refusingRepeats:)``).
/// Its earlier value stays, even after a snapshot.
///
/// In a pull of several pages, a refused row leaves what an earlier page
/// brought for it (a later state, which opened); a row that waits for its
/// key replaces it, so that its later state waits rather than being lost.
public struct SyncKeptRow: Sendable, Equatable {
    public var table: String
    public var id: UUID
    /// The version the server sent it at.
    public var version: Int64
    /// Its place among the page's rows, for an error that names it.
    public var index: Int
    /// Whether it waits for its key, rather than being refused.
    public var waitsForKey: Bool

    public init(table: String, id: UUID, version: Int64, index: Int, waitsForKey: Bool = false) {
        self.table = table
        self.id = id
        self.version = version
        self.index = index
        self.waitsForKey = waitsForKey
    }
}
