/// A chunk of the records of an app's earlier store, which the engine's
/// store takes in (``SyncAdoption``): rows and answers as the engine keeps
/// them, and where the next chunk starts. The earlier store hands its
/// tables over a chunk at a time, in an order of its own, so that no
/// adoption holds every row in memory.
public struct SyncAdoptedChunk: Sendable, Equatable {
    /// Where a chunk starts, in the earlier store's order: which of its
    /// tables (`part`, as it numbers them), after which key (as that table
    /// keeps it; from its first row when nil).
    public struct Position: Sendable, Equatable {
        public var part: Int
        public var after: String?

        public init(part: Int, after: String?) {
            self.part = part
            self.after = after
        }
    }

    /// Rows of the engine's tables, live ones and tombstones, with their
    /// versions in the adopted history.
    public var rows: [SyncStoredRow]
    /// Answers kept for retries.
    public var answers: [SyncRecordedAnswer]
    /// Where the next chunk starts; nil after the last one.
    public var next: Position?

    public init(rows: [SyncStoredRow] = [], answers: [SyncRecordedAnswer] = [], next: Position?) {
        self.rows = rows
        self.answers = answers
        self.next = next
    }
}
