import Dispatch
import Foundation

/// Where and when a ``ValueObservation`` delivers its values:
/// ``ValueObservationScheduler/async(onQueue:)``,
/// ``ValueObservationScheduler/immediate``,
/// ``ValueObservationScheduler/task``,
/// ``ValueObservationScheduler/mainActor``.
///
/// ```swift
/// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: queue)) { error in
///     ...
/// } onChange: { value in
///     ...
/// }
/// ```
public protocol ValueObservationScheduler: Sendable {
    /// Whether the initial value is delivered synchronously, before
    /// `start` returns.
    func immediateInitialValue() -> Bool

    /// Runs `action`, later.
    func schedule(_ action: @escaping @Sendable () -> Void)
}

extension ValueObservationScheduler {
    /// Runs the delivery of the initial value.
    func scheduleInitial(_ action: @escaping @Sendable () -> Void) {
        if immediateInitialValue() {
            action()
        } else {
            schedule(action)
        }
    }
}

/// A scheduler that delivers values on the main actor.
public protocol ValueObservationMainActorScheduler: ValueObservationScheduler {
    /// Runs `action` on the main actor, later.
    func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void)
}

extension ValueObservationMainActorScheduler {
    public func schedule(_ action: @escaping @Sendable () -> Void) {
        scheduleOnMainActor(action)
    }
}

// MARK: - Async

/// Delivers all values asynchronously, in order, on a dispatch queue.
public struct AsyncValueObservationScheduler: ValueObservationScheduler {
    let queue: DispatchQueue

    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.async(execute: action)
    }
}

extension ValueObservationScheduler where Self == AsyncValueObservationScheduler {
    /// Delivers all values asynchronously, in order, on `queue`.
    public static func async(onQueue queue: DispatchQueue) -> AsyncValueObservationScheduler {
        AsyncValueObservationScheduler(queue: queue)
    }
}

// MARK: - Immediate

/// Delivers the initial value synchronously, before `start` returns, and
/// later values asynchronously on the main queue. The observation must be
/// started from the main thread.
public struct ImmediateValueObservationScheduler: ValueObservationMainActorScheduler {
    public init() {}

    public func immediateInitialValue() -> Bool {
        precondition(Self.isOnMain, "ValueObservation must be started from the main thread.")
        return true
    }

    /// Whether the current code runs on the main thread, or in a block of
    /// the main queue (on Linux, the main actor may run its jobs there from
    /// another thread while the main thread waits).
    private static var isOnMain: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
    }

    /// Marks the main queue.
    private static let mainQueueKey: DispatchSpecificKey<Void> = {
        let key = DispatchSpecificKey<Void>()
        DispatchQueue.main.setSpecific(key: key, value: ())
        return key
    }()

    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        DispatchQueue.main.async {
            MainActor.assumeIsolated { action() }
        }
    }
}

extension ValueObservationScheduler where Self == ImmediateValueObservationScheduler {
    /// Delivers the initial value before `start` returns, and later values
    /// on the main queue. Start the observation from the main thread.
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

extension ValueObservationMainActorScheduler where Self == ImmediateValueObservationScheduler {
    /// Delivers the initial value before `start` returns, and later values
    /// on the main actor.
    public static var immediate: ImmediateValueObservationScheduler {
        ImmediateValueObservationScheduler()
    }
}

// MARK: - Task

/// Delivers all values asynchronously, in order, from a task of its own.
public final class TaskValueObservationScheduler: ValueObservationScheduler {
    private let continuation: AsyncStream<@Sendable () -> Void>.Continuation
    private let task: Task<Void, Never>

    init(priority: TaskPriority?) {
        let (stream, continuation) = AsyncStream.makeStream(of: (@Sendable () -> Void).self)
        self.continuation = continuation
        task = Task(priority: priority) {
            for await action in stream {
                action()
            }
        }
    }

    deinit {
        task.cancel()
    }

    public func immediateInitialValue() -> Bool { false }

    public func schedule(_ action: @escaping @Sendable () -> Void) {
        continuation.yield(action)
    }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
    /// Delivers all values asynchronously, in order, from a new task.
    public static var task: TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: nil)
    }

    /// Delivers all values asynchronously, in order, from a new task of
    /// this priority.
    public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
        TaskValueObservationScheduler(priority: priority)
    }
}

// MARK: - Main actor

/// Delivers all values asynchronously, in order, on the main actor.
public final class DelayedMainActorValueObservationScheduler: ValueObservationMainActorScheduler {
    public func immediateInitialValue() -> Bool { false }

    public func scheduleOnMainActor(_ action: @escaping @MainActor () -> Void) {
        DispatchQueue.main.async {
            MainActor.assumeIsolated { action() }
        }
    }
}

extension ValueObservationScheduler where Self == DelayedMainActorValueObservationScheduler {
    /// Delivers all values asynchronously, in order, on the main actor.
    public static var mainActor: DelayedMainActorValueObservationScheduler {
        DelayedMainActorValueObservationScheduler()
    }
}
