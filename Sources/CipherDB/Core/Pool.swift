import Dispatch
import Synchronization

/// A pool of at most `maximumCount` elements, created on demand, with a
/// barrier that waits until no element is in use and lets none be taken
/// meanwhile.
///
/// `Sendable` through its locks: `state` is guarded by a mutex, the
/// semaphore and group are thread-safe.
final class Pool<Element: AnyObject & Sendable>: Sendable {
    private struct Item: Sendable {
        let element: Element
        let generation: Int
    }

    private struct State: ~Copyable {
        var available: [Item] = []
        var all: [Element] = []
        var createdCount = 0
        var generation = 0
        var isClosed = false
    }

    private let makeElement: @Sendable (_ index: Int) throws -> Element
    private let keepsElements: Bool
    private let state = Mutex(State())
    private let itemsSemaphore: DispatchSemaphore
    private let itemsGroup = DispatchGroup()
    /// Takes run concurrently on it; a barrier runs alone.
    private let barrierQueue = DispatchQueue(label: "CipherDB.Pool.barrier", attributes: [.concurrent])

    init(maximumCount: Int, keepsElements: Bool = true, makeElement: @escaping @Sendable (Int) throws -> Element) {
        precondition(maximumCount > 0, "Pool size must be at least 1")
        self.makeElement = makeElement
        self.keepsElements = keepsElements
        self.itemsSemaphore = DispatchSemaphore(value: maximumCount)
    }

    /// Takes an element, waiting until one is free, and returns it with the
    /// function that gives it back.
    func get() throws -> (element: Element, release: @Sendable () -> Void) {
        try barrierQueue.sync {
            itemsSemaphore.wait()
            itemsGroup.enter()
            do {
                let item = try takeItem()
                return (item.element, { self.release(item) })
            } catch {
                itemsSemaphore.signal()
                itemsGroup.leave()
                throw error
            }
        }
    }

    private func takeItem() throws -> Item {
        let (reused, index, generation) = try state.withLock { state -> (Item?, Int, Int) in
            if state.isClosed { throw DatabaseError.connectionIsClosed() }
            if let item = state.available.popLast() { return (item, 0, state.generation) }
            state.createdCount += 1
            return (nil, state.createdCount, state.generation)
        }
        if let reused { return reused }
        // Opening a connection is slow (key derivation): not under the lock.
        let element = try makeElement(index)
        state.withLock { $0.all.append(element) }
        return Item(element: element, generation: generation)
    }

    private func release(_ item: Item) {
        state.withLock { state in
            if keepsElements && !state.isClosed && item.generation == state.generation {
                state.available.append(item)
            } else {
                state.all.removeAll { $0 === item.element }
            }
        }
        itemsSemaphore.signal()
        itemsGroup.leave()
    }

    /// Runs `body` once no element is in use, while none can be taken.
    func barrier<T>(_ body: () throws -> T) rethrows -> T {
        try barrierQueue.sync(flags: [.barrier]) {
            itemsGroup.wait()
            return try body()
        }
    }

    /// Every element created and not discarded, in use or not.
    var allElements: [Element] {
        state.withLock { $0.all }
    }

    /// Forgets the idle elements, and those in use once they are released.
    /// Returns the idle ones, so that the caller releases them outside the
    /// lock.
    @discardableResult
    func removeAll() -> [Element] {
        state.withLock { state in
            state.generation += 1
            let idle = state.available.map(\.element)
            state.available.removeAll()
            state.all.removeAll { element in idle.contains { $0 === element } }
            return idle
        }
    }

    /// Forgets every idle element, and refuses to give any more.
    func close() -> [Element] {
        state.withLock { state in
            state.isClosed = true
            let idle = state.available.map(\.element)
            state.available.removeAll()
            state.all.removeAll()
            return idle
        }
    }
}
