import CipherDB
import CSQLCipher
import Foundation

/// The cost of opening: a connection and its first query, where a
/// passphrase pays for key derivation and a raw key does not; and a
/// database pool with four readers busy at once.
struct OpenWorkloads {
    let folder: URL

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let path = folder.appendingPathComponent("open-\(mode.rawValue).db").path
        try ItemWorkloads.createFixture(path: path, mode: mode, rows: 10)
        let configuration = ItemWorkloads.configuration(mode)
        try await harness.measure("open and run a first query", mode: mode, subject: {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
            guard count == 10 else { throw BenchError("counted \(count ?? -1) items instead of 10") }
        }, baseline: {
            let raw = try RawSQLite(path: path, mode: mode)
            let statement = try raw.prepare("SELECT COUNT(*) FROM item")
            defer { sqlite3_finalize(statement) }
            try raw.check(sqlite3_step(statement))
            guard sqlite3_column_int64(statement, 0) == 10 else { throw BenchError("the baseline counted wrong") }
        })

        try await measurePoolWithFourReaders(&harness, mode: mode)
    }

    static let readerCount = 4

    /// Opens a pool and runs four reads that overlap, so that each needs
    /// its own reader connection. The baseline opens a writer in WAL mode
    /// and four readers, one after the other, each running the query.
    /// With a passphrase, a second workload keys the pool with a
    /// `DatabaseKeySource`, which derives the key once for all five
    /// connections (a new configuration each run, as a process that opens
    /// one pool); the baseline still derives it five times.
    private func measurePoolWithFourReaders(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let name = "open a DatabasePool and \(Self.readerCount) readers"
        let keySourceName = "\(name), keyed by a DatabaseKeySource"
        guard harness.includes(name) || (mode == .passphrase && harness.includes(keySourceName)) else { return }
        let path = folder.appendingPathComponent("open-pool-\(mode.rawValue).db").path
        try ItemWorkloads.createFixture(path: path, mode: mode, rows: 10)
        try RawSQLite(path: path, mode: mode).execute("PRAGMA journal_mode = WAL")
        let baseline = {
            let writer = try RawSQLite(path: path, mode: mode)
            try writer.execute("PRAGMA journal_mode = WAL")
            try writer.execute("PRAGMA synchronous = NORMAL")
            let readers = try (0..<Self.readerCount).map { _ in
                let reader = try RawSQLite(path: path, mode: mode)
                let statement = try reader.prepare("SELECT COUNT(*) FROM item")
                defer { sqlite3_finalize(statement) }
                try reader.check(sqlite3_step(statement))
                guard sqlite3_column_int64(statement, 0) == 10 else { throw BenchError("the baseline counted wrong") }
                return reader
            }
            withExtendedLifetime((writer, readers)) {}
        }
        let configuration = ItemWorkloads.configuration(mode)
        try await harness.measure(name, mode: mode, subject: {
            try Self.openPoolAndReadAtOnce(path: path, configuration: configuration)
        }, baseline: baseline)
        if mode == .passphrase {
            try await harness.measure(keySourceName, mode: mode, subject: {
                var configuration = Configuration()
                DatabaseKeySource.passphrase { Data(EncryptionMode.passphraseText.utf8) }.configure(&configuration)
                try Self.openPoolAndReadAtOnce(path: path, configuration: configuration)
            }, baseline: baseline)
        }
    }

    private static func openPoolAndReadAtOnce(path: String, configuration: Configuration) throws {
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        let barrier = ReaderBarrier(count: readerCount)
        let group = DispatchGroup()
        for _ in 0..<readerCount {
            group.enter()
            Thread {
                defer { group.leave() }
                barrier.record {
                    try dbPool.read { db in
                        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")
                        guard count == 10 else { throw BenchError("counted \(count ?? -1) items instead of 10") }
                        try barrier.arriveAndWait()
                    }
                }
            }.start()
        }
        group.wait()
        try barrier.check()
        // Closed here, not when the last thread lets it go: the next run
        // must not meet connections that are still closing.
        try dbPool.close()
    }
}

/// Holds reads until all of them have started, so that each has its own
/// connection; records the first error of any thread.
///
/// `@unchecked Sendable`: every property is read and written with
/// `condition` locked.
private final class ReaderBarrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0
    private var error: (any Error)?

    init(count: Int) {
        self.count = count
    }

    func arriveAndWait() throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < count {
            guard condition.wait(until: deadline) else {
                throw BenchError("\(count) reads did not run at once: the pool has fewer readers")
            }
        }
    }

    func record(_ body: () throws -> Void) {
        do {
            try body()
        } catch {
            condition.lock()
            if self.error == nil { self.error = error }
            // The others must not wait for a read that failed.
            arrived = count
            condition.broadcast()
            condition.unlock()
        }
    }

    func check() throws {
        condition.lock()
        defer { condition.unlock() }
        if let error { throw error }
    }
}
