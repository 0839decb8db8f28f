/// The outcome of an update of a player on the server.
public enum PlayerUpdateOutcome: Sendable, Equatable {
    case updated(ServerPlayer)
    case notFound
    /// The player's version is not the expected one: its current version.
    case conflict(currentVersion: Int64)
}
