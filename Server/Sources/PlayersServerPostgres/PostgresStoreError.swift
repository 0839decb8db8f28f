import PlayersServerStore

/// Why the PostgreSQL store cannot serve: one sentence, safe to log (it
/// never holds the password of a URL), and whether the database is
/// unreachable for now or in a state this program cannot serve.
public struct PostgresStoreError: StoreFailure, CustomStringConvertible, Equatable {
    public enum Kind: Equatable, Sendable {
        /// The database cannot be reached now: refused or dropped
        /// connections, no answer or no free connection in time.
        case unavailable
        /// The database or its configuration is not one this program can
        /// serve (a missing row, a newer schema, a bad URL).
        case unusable
    }

    public var kind: Kind
    public var description: String

    public init(_ description: String, kind: Kind = .unusable) {
        self.description = description
        self.kind = kind
    }

    public var isUnavailable: Bool { kind == .unavailable }

    /// A call after ``PostgresPlayersStore/close()``.
    static let closed = PostgresStoreError("the PostgreSQL store is closed.")
}
