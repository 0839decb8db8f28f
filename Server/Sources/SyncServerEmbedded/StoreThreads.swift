import NIOCore
import NIOPosix

/// The threads that run the blocking calls of the embedded stores
/// (Players' and the engine's), so that the event loops and Swift's
/// cooperative threads never wait for SQLite: a write waiting for the lock
/// (up to the busy timeout) stalls no other request.
package enum StoreThreads {
    /// Writes apart from reads, so that writes waiting for each other never
    /// hold the threads of reads. Several threads: SQLite serializes the
    /// writes of one database itself (on these threads, never on a
    /// cooperative one), and a process with several stores (the tests)
    /// writes to each without waiting for the others' writes.
    static let writes = startedPool(threads: max(4, System.coreCount))
    /// Reads run side by side (WAL), a few at a time.
    static let reads = startedPool(threads: max(4, System.coreCount))

    /// A write, off the cooperative threads.
    package static func write<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await writes.runIfActive(body)
    }

    /// A read, off the cooperative threads.
    package static func read<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await reads.runIfActive(body)
    }

    /// The pools live as long as the process, like NIO's own singletons.
    private static func startedPool(threads: Int) -> NIOThreadPool {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        return pool
    }
}
