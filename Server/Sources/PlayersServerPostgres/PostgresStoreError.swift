/// Why the PostgreSQL store cannot serve: one sentence, safe to log (it
/// never holds the password of a URL).
public struct PostgresStoreError: Error, CustomStringConvertible, Equatable {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// A call after ``PostgresPlayersStore/close()``.
    static let closed = PostgresStoreError("the PostgreSQL store is closed.")
}
