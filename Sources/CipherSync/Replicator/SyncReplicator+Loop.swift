import CipherDB
import Foundation
import SyncEngine

extension SyncReplicator {
    /// The computer slept while a request was under way.
    private struct SleepNoticed: Error {}

    /// The loop of ``start()``, ``run()`` and a ``syncNow()`` without a
    /// replication running; then the status at its end, and the streams
    /// ended unless `endingStreams` is false.
    func replicate(endingStreams: Bool) async -> SyncFailure? {
        while true {
            let failure = await syncUntilStopped()
            // Ends only in the same lock that sees no syncNow() waiting: one
            // made as the loop ended is served by a loop, not cancelled.
            guard let (waiters, subscribers) = state.withLock({ state -> ([State.Waiter], Subscribers)? in
                if !Task.isCancelled, !state.waiters.isEmpty { return nil }
                return endReplication(&state, failure: failure, endingStreams: endingStreams)
            }) else { continue }
            for waiter in waiters { waiter.continuation.resume(throwing: failure ?? CancellationError()) }
            subscribers.finish()
            return failure
        }
    }

    /// Marks the replication ended, with its last status; returns the
    /// ``syncNow()`` calls to resume and the streams to end.
    private func endReplication(_ state: inout State, failure: SyncFailure?, endingStreams: Bool) -> ([State.Waiter], Subscribers) {
        state.running = false
        state.task = nil
        if failure == nil, Task.isCancelled || state.status.activity.kind != .upToDate {
            state.publish(SyncStatus(activity: .idle, lastSyncedAt: state.status.lastSyncedAt))
        }
        defer { state.waiters.removeAll() }
        return (Array(state.waiters.values), endingStreams ? state.takeSubscribers() : Subscribers())
    }

    /// Syncs, and again while the replication is continuous or a
    /// ``syncNow()`` waits for a sync that began after it; returns the
    /// failure that ends it, or nil.
    private func syncUntilStopped() async -> SyncFailure? {
        let localChanges: SyncLocalChanges
        let keptConflicts: Int64
        do {
            localChanges = try SyncLocalChanges(databaseOf: client.store.writer, pollingEvery: configuration.fileCheckInterval)
            keptConflicts = try await client.store.writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT max(id) FROM \(SyncConflict.databaseTableName)") ?? 0
            }
        } catch {
            if Task.isCancelled { return nil }
            let failure = SyncFailure.local(error)
            update { $0 = SyncStatus(activity: .failed(failure), lastSyncedAt: $0.lastSyncedAt) }
            return failure
        }
        defer { try? localChanges.close() }
        var client = observed(client, localChanges: localChanges)
        var lastConflict = keptConflicts
        var failures = 0
        // Told once while its retries fail alike, not at each retry.
        var refusedRow: SyncRowReference?
        while !Task.isCancelled {
            wakeUp.clear()
            let (served, holds) = state.withLock { state in
                let upToDate = state.status.activity.kind == .upToDate
                // Once a push is answered: the long-poll that follows waits
                // for news, up to date; a pull at once is under way.
                state.resting = upToDate ? .upToDate : .pulling(SyncPullProgress())
                if !upToDate { state.publish(SyncStatus(activity: .connecting, lastSyncedAt: state.status.lastSyncedAt)) }
                // A long-poll only once up to date (the first sync, and the
                // one after a failure, answer at once), and not for a
                // syncNow(), which waits for the server's news now.
                return (state.requests, upToDate && state.continuous && state.waiters.isEmpty)
            }
            client.waitSeconds = holds ? configuration.longPollSeconds : nil
            do {
                let report = try await untilSleepNoticed { [client, check = configuration.checkBeforePush] in
                    if let check { try await client.store.writer.read(check) }
                    return try await client.pushThenPull()
                }
                failures = 0
                refusedRow = nil
                lastConflict = await tellConflicts(after: lastConflict)
                let goesOn = state.withLock { state in
                    state.publish(SyncStatus(activity: .upToDate, lastSyncedAt: configuration.now()))
                    state.tell(.synced(report))
                    state.resumeWaiters(upTo: served, with: .success(report))
                    return state.continuous || state.requests > served
                }
                if !goesOn { return nil }
            } catch is SleepNoticed {
                failures = 0
                resumeAfterSleep()
            } catch {
                if Task.isCancelled { break }
                lastConflict = await tellConflicts(after: lastConflict)
                let failure = SyncFailure(error)
                failures += 1
                let refused: SyncRowReference? = if case .changeRefused(let row, _) = failure { row } else { nil }
                let tellsRefusal = refused != nil && refused != refusedRow
                refusedRow = refused
                let retryingIn = state.withLock { state -> Duration? in
                    let continues = (state.continuous || state.requests > served) && !failure.endsReplication
                    let wait = continues ? backOff(after: failures, error) : nil
                    let activity: SyncActivity = if let error = error as? TransportError, error.isTransient { .offline(error) } else { .failed(failure) }
                    if tellsRefusal, case .changeRefused(let row, let reason) = failure { state.tell(.changeRefused(row, reason)) }
                    state.publish(SyncStatus(activity: activity, lastSyncedAt: state.status.lastSyncedAt, retryingIn: wait))
                    state.resumeWaiters(upTo: served, with: .failure(failure))
                    return wait
                }
                guard let retryingIn else { return failure }
                do {
                    _ = try await untilSleepNoticed { [self] in
                        try await waitOrWakeUp(retryingIn)
                        return true
                    }
                } catch is SleepNoticed {
                    failures = 0
                    resumeAfterSleep()
                } catch {
                    break // cancelled
                }
            }
        }
        return nil
    }

    /// The wait before the next try after `failures` in a row: 1 s,
    /// doubled each time up to ``Configuration/maximumBackOff``; at least
    /// what a busy server asked (``SyncError/retryAfter``), up to
    /// ``Configuration/maximumRetryAfter``.
    func backOff(after failures: Int, _ error: any Error) -> Duration {
        let doubled = min(.seconds(1) * (1 << min(failures - 1, 16)), configuration.maximumBackOff)
        guard let retryAfter = (error as? SyncError)?.retryAfter else { return doubled }
        return max(doubled, min(.seconds(retryAfter.rounded(.up)), configuration.maximumRetryAfter))
    }

    /// `client`, reporting to the status and the events: each page, the
    /// merge's progress, the push's, the rows removed; and ending its
    /// long-poll for a local change or a ``syncNow()``.
    private func observed(_ client: SyncClient<SyncEngineStore>, localChanges: SyncLocalChanges) -> SyncClient<SyncEngineStore> {
        var client = client
        let (onPage, onPushProgress) = (client.onPage, client.onPushProgress)
        let (mergeProgress, onRowsRemoved) = (client.store.mergeProgress, client.store.onRowsRemoved)
        client.onPage = { [self] pages, bytes in
            onPage?(pages, bytes)
            update { $0.activity = .pulling(SyncPullProgress(pages: pages, bytes: bytes)) }
        }
        client.store.mergeProgress = { [self] merged, staged in
            mergeProgress?(merged, staged)
            update { status in
                var progress = SyncPullProgress()
                if case .pulling(let received) = status.activity { progress = received }
                (progress.merged, progress.staged) = (merged, staged)
                status.activity = .pulling(progress)
            }
        }
        client.onPushProgress = { [self] answered, pending in
            onPushProgress?(answered, pending)
            state.withLock { state in
                var status = state.status
                status.activity = answered < pending ? .pushing(answered: answered, pending: pending) : state.resting
                state.publish(status)
            }
        }
        client.store.onRowsRemoved = { [self] rows in
            onRowsRemoved?(rows)
            state.withLock { state in
                for row in rows { state.tell(.rowRemoved(row)) }
            }
        }
        client.localChangeToPush = { [wakeUp] in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await localChanges.next() }
                group.addTask { await wakeUp.wait() }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
        return client
    }

    /// Tells the conflicts kept since `last` (their ids grow), and returns
    /// the last one's id.
    private func tellConflicts(after last: Int64) async -> Int64 {
        guard let conflicts = try? await client.store.writer.read({ db in
            try SyncConflict.fetchAll(db, sql: "SELECT * FROM \(SyncConflict.databaseTableName) WHERE id > ? ORDER BY id", arguments: [last])
        }), let newest = conflicts.last else { return last }
        state.withLock { state in
            for conflict in conflicts {
                // A change the server refused is kept as a conflict is, and told as refused.
                let event: SyncEvent = if let refusal = conflict.refusal {
                    .changeRefused(SyncRowReference(table: conflict.table, id: conflict.rowID),
                                   SyncError.forbidden.with(status: 403, detail: refusal))
                } else {
                    .conflictKept(conflict)
                }
                state.tell(event)
            }
        }
        return newest.id
    }

    /// Waits `duration` (``Configuration/sleep``), or until a
    /// ``syncNow()``, or until the task is cancelled.
    private func waitOrWakeUp(_ duration: Duration) async throws {
        try await withThrowingTaskGroup(of: Void.self) { [configuration, wakeUp] group in
            group.addTask { try await configuration.sleep(duration) }
            group.addTask { await wakeUp.wait() }
            defer { group.cancelAll() }
            try await group.next()
        }
        try Task.checkCancellation()
    }

    /// After a sleep of the computer: connecting again, and told.
    private func resumeAfterSleep() {
        state.withLock { state in
            state.publish(SyncStatus(activity: .connecting, lastSyncedAt: state.status.lastSyncedAt))
            state.tell(.resumedAfterSleep)
        }
    }

    private func update(_ change: (inout SyncStatus) -> Void) {
        state.withLock { state in
            var status = state.status
            change(&status)
            state.publish(status)
        }
    }

    /// Runs `operation`, or throws ``SleepNoticed`` (cancelling it) when the
    /// wall clock moves more than ``Configuration/sleepThreshold`` past the
    /// monotonic clock, which stops while the computer sleeps.
    private func untilSleepNoticed<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let threshold = configuration.sleepThreshold
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                let clock = SuspendingClock()
                var (wall, monotonic) = (Date(), clock.now)
                while true {
                    try await Task.sleep(for: .seconds(1))
                    let (newWall, newMonotonic) = (Date(), clock.now)
                    let elapsed = monotonic.duration(to: newMonotonic)
                    let monotonicSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                    if newWall.timeIntervalSince(wall) - monotonicSeconds > threshold { return nil }
                    (wall, monotonic) = (newWall, newMonotonic)
                }
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else { throw SleepNoticed() }
            return result
        }
    }
}
