import PlayersServerStore

/// A page of a delta and its answer, which the requests that share its
/// read (``SharedDeltaReads``) send as they are.
struct SharedDelta: Sendable {
    var page: DeltaPage
    var answer: PlayersPage
}
