import CipherDB
import Dispatch
import Synchronization

/// The players of the database, kept up to date: the seeds'
/// `PlayerListModel`, without a UI framework.
///
/// ```swift
/// let list = PlayerList(appDatabase: appDatabase)
/// list.observePlayers()
/// for await players in list.updates {
///     print(players.map(\.name))
/// }
/// list.ordering = .byName // restarts the observation, re-sorted
/// ```
///
/// `Sendable` through its mutex: use it from any task or thread.
public final class PlayerList: Sendable {
    /// The order of the players.
    public enum Ordering: Sendable, Equatable {
        case byName
        case byScore
    }

    private struct State: ~Copyable {
        var ordering: Ordering
        var players: [Player] = []
        var error: (any Error)?
        var cancellable: AnyDatabaseCancellable?
        var continuations: [Int: AsyncStream<[Player]>.Continuation] = [:]
        var nextContinuationID = 0
    }

    private let appDatabase: AppDatabase
    private let state: Mutex<State>
    /// Delivers the values of the observation, in order.
    private let queue = DispatchQueue(label: "Players.PlayerList")

    public init(appDatabase: AppDatabase, ordering: Ordering = .byScore) {
        self.appDatabase = appDatabase
        state = Mutex(State(ordering: ordering))
    }

    deinit {
        state.withLock { state in
            state.cancellable?.cancel()
            state.continuations.values.forEach { $0.finish() }
        }
    }

    /// The order of the players. Changing it restarts the observation.
    public var ordering: Ordering {
        get { state.withLock { $0.ordering } }
        set {
            let isObserving = state.withLock { state -> Bool in
                state.ordering = newValue
                return state.cancellable != nil
            }
            if isObserving { observePlayers() }
        }
    }

    /// The latest players, in the current order.
    public var players: [Player] { state.withLock { $0.players } }

    /// The error that stopped the observation, if any.
    public var error: (any Error)? { state.withLock { $0.error } }

    /// Starts (or restarts) observing the players.
    public func observePlayers() {
        let ordering = self.ordering
        // Without duplicates: a commit to the table that leaves the list
        // as it was, and the initial list that a pool fetches twice (on a
        // reader, then on the writer), publish nothing.
        let observation = ValueObservation
            .tracking { db in
                switch ordering {
                case .byName: try Player.all().orderedByName().fetchAll(db)
                case .byScore: try Player.all().orderedByScore().fetchAll(db)
                }
            }
            .removeDuplicates()
        let cancellable = observation.start(in: appDatabase.reader, scheduling: .async(onQueue: queue)) { [weak self] error in
            self?.state.withLock { $0.error = error }
        } onChange: { [weak self] players in
            self?.publish(players, ordering: ordering)
        }
        let previous = state.withLock { state -> AnyDatabaseCancellable? in
            defer { state.cancellable = cancellable }
            return state.cancellable
        }
        previous?.cancel()
    }

    /// Stops observing the players.
    public func stopObserving() {
        let cancellable = state.withLock { state -> AnyDatabaseCancellable? in
            defer { state.cancellable = nil }
            return state.cancellable
        }
        cancellable?.cancel()
    }

    /// The player lists, as they change: the current one first (if the
    /// observation has delivered one), then each new one. Slow consumers
    /// get the latest list.
    public var updates: AsyncStream<[Player]> {
        let (stream, continuation) = AsyncStream<[Player]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int in
            let id = state.nextContinuationID
            state.nextContinuationID += 1
            state.continuations[id] = continuation
            if state.cancellable != nil && !state.players.isEmpty {
                continuation.yield(state.players)
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    private func publish(_ players: [Player], ordering: Ordering) {
        let continuations = state.withLock { state -> [AsyncStream<[Player]>.Continuation] in
            // A value of an observation that a new ordering replaced.
            guard state.ordering == ordering else { return [] }
            state.players = players
            return Array(state.continuations.values)
        }
        continuations.forEach { $0.yield(players) }
    }
}
