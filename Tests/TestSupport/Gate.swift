import Dispatch
import Synchronization

/// A barrier that threads wait at until the test opens it, once and for
/// all: the way to hold a server's answer (``ScriptedHTTPServer/Step/hold(_:)``)
/// until the test has seen what it waits for, instead of hoping a sleep
/// was long enough.
///
/// ```swift
/// let gate = Gate()
/// let server = try ScriptedHTTPServer { _, _ in [.hold(gate)] + .json("{}") }
/// // … once the client is seen waiting:
/// gate.open()
/// ```
public final class Gate: Sendable {
    private let isOpen = Mutex(false)
    /// Entered once at creation, left by the first `open()`.
    private let group = DispatchGroup()

    public init() {
        group.enter()
    }

    /// Lets every waiter through, now and later. Opening twice is harmless.
    public func open() {
        let wasOpen = isOpen.withLock { isOpen in
            defer { isOpen = true }
            return isOpen
        }
        if !wasOpen { group.leave() }
    }

    /// Blocks the calling thread (never a task's) until the gate opens.
    public func wait() {
        group.wait()
    }
}
