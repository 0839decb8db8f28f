/// How the server's history differs from the one a store last synced
/// with, as a snapshot found it: the sync says so in its report
/// (``SyncReport/historyChange``).
public enum SyncHistoryChange: String, Codable, Equatable, Sendable {
    /// The server's database went back (it was restored from a backup):
    /// what the store synced after the point where both histories part,
    /// the server lost. The store keeps it: it is pushed again
    /// (``SyncCounts/requeued``).
    case wentBack
    /// Another server's database, which the client was told to accept
    /// (``SyncClient/allowsOtherServer``): its snapshot replaced the
    /// synced data.
    case otherServer
}
