import CipherDB
import Dispatch
import Synchronization
import Testing

/// `AnyDatabaseCancellable`: its cancellation runs once, and what it holds
/// is released once it has run.
@Suite struct DatabaseCancellableTests {
    @Test func theCancellationRunsOnceWhetherCancelledOrDeallocated() {
        let count = Mutex(0)
        do {
            let cancellable = AnyDatabaseCancellable { count.withLock { $0 += 1 } }
            cancellable.cancel()
            cancellable.cancel()
        }
        #expect(count.withLock { $0 } == 1)
        do {
            _ = AnyDatabaseCancellable { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == 2)
    }

    /// As GRDB's `test_async_observationLifetime_early_release`: the
    /// subscription keeps the shared observation alive, and cancelling it
    /// releases the shared observation, which stops observing.
    @Test func aSharedObservationLeftByItsOwnerStopsWhenItsLastSubscriptionIsCancelled() async throws {
        let fixture = try DatabaseFixture(.queue)
        try fixture.createPlayerTable()
        let didCancel = ValueRecorder<Bool>()
        var shared: SharedValueObservation<Int>? = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .handleEvents(didCancel: { didCancel.record(true) })
            .shared(in: fixture.writer, scheduling: .async(onQueue: DispatchQueue(label: "shared")), extent: .observationLifetime)
        let recorder = ValueRecorder<Int>()
        let cancellable = try #require(shared).start { recorder.record(error: $0) } onChange: { recorder.record($0) }
        shared = nil
        try await recorder.wait { $0 == [0] }
        #expect(didCancel.values.isEmpty)
        cancellable.cancel()
        #expect(didCancel.values == [true])
        #expect(recorder.errors.isEmpty)
    }
}
