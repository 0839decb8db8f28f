import SyncSchema
import Synchronization

/// The refusals of one sync's pages, as they are staged one by one.
final class SyncRefusals: Sendable {
    private let list = Mutex<[SyncRowRefusal]>([])

    func append(_ refusals: [SyncRowRefusal]) {
        guard !refusals.isEmpty else { return }
        list.withLock { $0 += refusals }
    }

    var all: [SyncRowRefusal] {
        list.withLock { $0 }
    }
}
