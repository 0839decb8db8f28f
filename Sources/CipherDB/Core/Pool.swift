import Dispatch
import Synchronization

/// A pool of at most `maximumCount` elements, created on demand, with a
/// barrier that waits until no element is in use and lets none be taken
/// meanwhile.
///
/// Waiting never blocks a thread that does not ask for it: a request that
/// cannot be served now is queued as a callback, and served by the release
/// that frees an element. Synchronous callers wait on their own semaphore;
/// async callers suspend.
///
/// `Sendable` through its mutex: every mutable state is in `state`.
final class Pool<Element: AnyObject & Sendable>: Sendable {
    /// An element handed out, with the generation it belongs to.
    struct Item: Sendable {
        let element: Element
        fileprivate let generation: Int
    }

    /// What a request receives: an idle element, or the right to create one.
    private enum Grant {
        case item(Item)
        case create(index: Int, generation: Int)
    }

    private typealias Waiter = @Sendable (Result<Grant, Error>) -> Void

    private struct State: ~Copyable {
        var available: [Item] = []
        var all: [Element] = []
        var inUseCount = 0
        var createdCount = 0
        var generation = 0
        var isClosed = false
        var waiters: [Waiter] = []
        var pendingBarrierCount = 0
        /// Called when the last element in use is released, for the barrier
        /// that waits for it.
        var barrierWaiter: (@Sendable () -> Void)?
    }

    private let maximumCount: Int
    private let keepsElements: Bool
    private let makeElement: @Sendable (_ index: Int) throws -> Element
    private let state = Mutex(State())
    /// Barriers run one at a time.
    private let barrierLock = Mutex(())

    init(maximumCount: Int, keepsElements: Bool = true, makeElement: @escaping @Sendable (Int) throws -> Element) {
        precondition(maximumCount > 0, "Pool size must be at least 1")
        self.maximumCount = maximumCount
        self.keepsElements = keepsElements
        self.makeElement = makeElement
    }

    // MARK: - Taking and releasing

    /// Takes an element, waiting until one is free. Call `release(_:)`
    /// with the item when done.
    func get() throws -> Item {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Item, Error>?>(nil)
        request { item in
            result.withLock { $0 = item }
            semaphore.signal()
        }
        semaphore.wait()
        return try result.withLock { $0! }.get()
    }

    /// Takes an element, suspending until one is free.
    func get() async throws -> Item {
        try await withCheckedThrowingContinuation { continuation in
            request { continuation.resume(with: $0) }
        }
    }

    /// Calls `completion` with an element as soon as one is free, on the
    /// thread that frees it, or at once.
    func request(_ completion: @escaping @Sendable (Result<Item, Error>) -> Void) {
        let waiter: Waiter = { grant in
            completion(grant.flatMap { self.resolve($0) })
        }
        let grant: Result<Grant, Error>? = state.withLock { state in
            if state.isClosed { return .failure(DatabaseError.connectionIsClosed()) }
            guard state.pendingBarrierCount == 0, let grant = Self.nextGrant(&state, maximumCount: maximumCount) else {
                state.waiters.append(waiter)
                return nil
            }
            return .success(grant)
        }
        if let grant { waiter(grant) }
    }

    /// Hands out an idle element or the right to create one, if any.
    private static func nextGrant(_ state: inout State, maximumCount: Int) -> Grant? {
        if let item = state.available.popLast() {
            state.inUseCount += 1
            return .item(item)
        }
        if state.createdCount < maximumCount {
            state.createdCount += 1
            state.inUseCount += 1
            return .create(index: state.createdCount, generation: state.generation)
        }
        return nil
    }

    /// Creates the element of a grant, outside the lock: opening a
    /// connection is slow (key derivation).
    private func resolve(_ grant: Grant) -> Result<Item, Error> {
        switch grant {
        case .item(let item):
            return .success(item)
        case let .create(index, generation):
            do {
                let item = Item(element: try makeElement(index), generation: generation)
                state.withLock { $0.all.append(item.element) }
                return .success(item)
            } catch {
                // Give the slot back, so that a waiter can try again.
                finishUse { state in state.createdCount -= 1 }
                return .failure(error)
            }
        }
    }

    /// Gives an element back.
    func release(_ item: Item) {
        finishUse { state in
            if keepsElements && !state.isClosed && item.generation == state.generation {
                state.available.append(item)
            } else {
                state.all.removeAll { $0 === item.element }
                state.createdCount -= 1
            }
        }
    }

    /// Ends the use of an element, then serves a waiter or a barrier.
    private func finishUse(_ update: (inout State) -> Void) {
        let (waiter, grant, barrierWaiter) = state.withLock { state -> (Waiter?, Grant?, (@Sendable () -> Void)?) in
            state.inUseCount -= 1
            update(&state)
            if state.pendingBarrierCount > 0 {
                if state.inUseCount == 0, let barrierWaiter = state.barrierWaiter {
                    state.barrierWaiter = nil
                    return (nil, nil, barrierWaiter)
                }
                return (nil, nil, nil)
            }
            guard !state.waiters.isEmpty, let grant = Self.nextGrant(&state, maximumCount: maximumCount) else {
                return (nil, nil, nil)
            }
            return (state.waiters.removeFirst(), grant, nil)
        }
        if let waiter, let grant { waiter(.success(grant)) }
        barrierWaiter?()
    }

    // MARK: - Barrier

    /// The barriers that wait for elements in use, or run: what a test
    /// waits on to know that a barrier waits, instead of a sleep.
    var pendingBarrierCount: Int { state.withLock { $0.pendingBarrierCount } }

    /// Runs `body` once no element is in use, while none can be taken.
    func barrier<T>(_ body: () throws -> T) throws -> T {
        try barrierLock.withLock { _ in
            let semaphore = DispatchSemaphore(value: 0)
            let mustWait = state.withLock { state -> Bool in
                state.pendingBarrierCount += 1
                guard state.inUseCount > 0 else { return false }
                state.barrierWaiter = { semaphore.signal() }
                return true
            }
            if mustWait { semaphore.wait() }
            defer { endBarrier() }
            return try body()
        }
    }

    /// Runs `body` once no element is in use, while none can be taken,
    /// without blocking a thread of the cooperative pool: a thread of
    /// Dispatch waits until the elements in use come back, then holds the
    /// barrier until `body`, which runs in the calling task, ends. Returns
    /// once the barrier has ended: the next access of the task finds the
    /// elements free to take.
    func barrier<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let end = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        try await withCheckedThrowingContinuation { (taken: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                do {
                    try self.barrier {
                        taken.resume()
                        end.wait()
                    }
                } catch {
                    taken.resume(throwing: error)
                }
                ended.signal()
            }
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                end.signal()
                ended.wait()
                done.resume()
            }
        }
        return try result.get()
    }

    /// Lets the waiters that queued during the barrier take elements.
    private func endBarrier() {
        let served = state.withLock { state -> [(Waiter, Result<Grant, Error>)] in
            state.pendingBarrierCount -= 1
            var served: [(Waiter, Result<Grant, Error>)] = []
            while !state.waiters.isEmpty {
                if state.isClosed {
                    served.append((state.waiters.removeFirst(), .failure(DatabaseError.connectionIsClosed())))
                } else if let grant = Self.nextGrant(&state, maximumCount: maximumCount) {
                    served.append((state.waiters.removeFirst(), .success(grant)))
                } else {
                    break
                }
            }
            return served
        }
        for (waiter, grant) in served { waiter(grant) }
    }

    // MARK: - Maintenance

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
            state.createdCount -= idle.count
            state.all.removeAll { element in idle.contains { $0 === element } }
            return idle
        }
    }

    /// Forgets every idle element, and refuses to give any more. Call it in
    /// a barrier, so that no element is in use.
    @discardableResult
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
