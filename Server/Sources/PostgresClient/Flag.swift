import Synchronization

/// A flag that a task sets once and another reads: whether a listening
/// session got as far as its subscription, whether a transaction's
/// `BEGIN` was answered.
package final class Flag: Sendable {
    private let value = Atomic(false)

    package init() {}

    package var isSet: Bool { value.load(ordering: .acquiring) }

    package func set() { value.store(true, ordering: .releasing) }
}
