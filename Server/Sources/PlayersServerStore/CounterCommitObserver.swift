import CipherDB

/// Publishes the change counter of a ``ServerPlayersDatabase`` to its
/// ``StoreChangeNotifier`` after each commit that moved it, whichever
/// call made the change: the waiting long-polls wake only once the change
/// is durable and visible to readers.
final class CounterCommitObserver: TransactionObserver, @unchecked Sendable {
    // @unchecked Sendable: `counterChanged` is only touched by the
    // callbacks, which run on the writer connection's queue, one at a time.
    private let notifier: StoreChangeNotifier
    private var counterChanged = false

    init(notifier: StoreChangeNotifier) {
        self.notifier = notifier
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "changeCounter"
    }

    func databaseDidChange(with event: DatabaseEvent) {
        counterChanged = true
    }

    func databaseDidCommit(_ db: Database) {
        guard counterChanged else { return }
        counterChanged = false
        if let counter = try? ServerPlayersDatabase.counter(db) {
            notifier.publish(counter.value)
        }
    }

    func databaseDidRollback(_ db: Database) {
        counterChanged = false
    }
}
