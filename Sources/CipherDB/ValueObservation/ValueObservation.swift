import Dispatch
import Foundation
import Synchronization

/// Observes the values of a fetch: the initial value, then a new value
/// after each commit that changes the database region the fetch reads.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.all().orderedByScore().fetchAll(db)
/// }
///
/// // With callbacks:
/// let cancellable = observation.start(in: dbQueue) { error in
///     print("error: \(error)")
/// } onChange: { players in
///     print("players: \(players)")
/// }
///
/// // As an async sequence:
/// for try await players in observation.values(in: dbQueue) {
///     print("players: \(players)")
/// }
/// ```
///
/// Values of a burst of commits may be coalesced, but the last value
/// always reflects the last commit. An observation stops at its first
/// error.
public struct ValueObservation<Value: Sendable>: Sendable {
    /// Makes the fetch of one start: a fresh pipeline, with its own state
    /// (`removeDuplicates` remembers the last value of each start). A nil
    /// result is not delivered.
    let makeFetch: @Sendable () -> @Sendable (Database) throws -> Value?

    /// The region to observe: nil tracks the region read by each fetch.
    let constantRegion: [any DatabaseRegionConvertible]?

    let events: ValueObservationEvents

    /// An observation of the values of `fetch`, which tracks the region
    /// that `fetch` reads, fetch after fetch.
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value> {
        ValueObservation(makeFetch: { { db in try fetch(db) } }, constantRegion: nil, events: ValueObservationEvents())
    }

    /// An observation of the values of `fetch`, which tracks a constant
    /// region, given in advance: cheaper than ``tracking(_:)`` when the
    /// region is known.
    public static func trackingConstantRegion(
        _ regions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation<Value>
    {
        ValueObservation(makeFetch: { { db in try fetch(db) } }, constantRegion: regions, events: ValueObservationEvents())
    }

    // MARK: - Transformations

    /// An observation of transformed values.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) throws -> T) -> ValueObservation<T> {
        let makeFetch = self.makeFetch
        return ValueObservation<T>(
            makeFetch: {
                let fetch = makeFetch()
                return { db in try fetch(db).map(transform) }
            },
            constantRegion: constantRegion,
            events: events)
    }

    /// An observation that skips values equal to the previous one.
    public func removeDuplicates() -> ValueObservation<Value> where Value: Equatable {
        removeDuplicates(by: ==)
    }

    /// An observation that skips values the predicate finds equal to the
    /// previous one.
    public func removeDuplicates(by predicate: @escaping @Sendable (Value, Value) -> Bool) -> ValueObservation<Value> {
        let makeFetch = self.makeFetch
        return ValueObservation(
            makeFetch: {
                let fetch = makeFetch()
                let previous = PreviousValue<Value>()
                return { db in
                    guard let value = try fetch(db) else { return nil }
                    return previous.replace(with: value, isDuplicate: predicate) ? nil : value
                }
            },
            constantRegion: constantRegion,
            events: events)
    }

    /// Calls the given functions at each step of the observation, for
    /// debugging.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil) -> ValueObservation<Value>
    {
        var events = self.events
        events.add(willStart: willStart, willFetch: willFetch, willTrackRegion: willTrackRegion,
                   databaseDidChange: databaseDidChange, didFail: didFail, didCancel: didCancel)
        let observation = ValueObservation(makeFetch: makeFetch, constantRegion: constantRegion, events: events)
        guard let didReceiveValue else { return observation }
        return observation.map { value in
            didReceiveValue(value)
            return value
        }
    }

    /// Prints every step of the observation, prefixed: values are printed,
    /// so use it only where they may be seen.
    public func print(_ prefix: String = "", to stream: (@Sendable (String) -> Void)? = nil) -> ValueObservation<Value> {
        let write: @Sendable (String) -> Void = stream ?? { Swift.print($0) }
        let label = prefix.isEmpty ? "" : "\(prefix): "
        return handleEvents(
            willStart: { write("\(label)start") },
            willFetch: { write("\(label)fetch") },
            willTrackRegion: { write("\(label)tracked region: \($0)") },
            databaseDidChange: { write("\(label)database did change") },
            didReceiveValue: { write("\(label)value: \($0)") },
            didFail: { write("\(label)failure: \($0)") },
            didCancel: { write("\(label)cancel") })
    }

    // MARK: - Starting

    /// Starts the observation: `onChange` receives the initial value, then
    /// a value after each relevant commit; `onError` receives the error
    /// that ends the observation, if any.
    ///
    /// On a ``DatabaseQueue``, fetches run on the writer; on a
    /// ``DatabasePool``, the initial fetch runs on the writer and later
    /// fetches on readers, one at a time, each started after the commit
    /// that triggered it.
    public func start(
        in reader: some DatabaseReader,
        scheduling scheduler: ValueObservationScheduler = .task,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable
    {
        guard let writer = reader as? any DatabaseWriter else {
            onError(DatabaseError(resultCode: .SQLITE_MISUSE, message: "ValueObservation needs a DatabaseQueue or a DatabasePool"))
            return AnyDatabaseCancellable {}
        }
        let runner = ValueObservationRunner(observation: self, writer: writer, scheduler: scheduler,
                                            onError: onError, onChange: onChange)
        runner.start()
        return AnyDatabaseCancellable { runner.cancel() }
    }

    /// The values of the observation, as an async sequence. Values are
    /// coalesced when the consumer is slower than the commits: it always
    /// receives the latest value.
    public func values(in reader: some DatabaseReader) -> AsyncValueObservation<Value> {
        AsyncValueObservation(observation: self, reader: reader)
    }
}

/// The debugging callbacks of an observation.
struct ValueObservationEvents: Sendable {
    var willStart: [@Sendable () -> Void] = []
    var willFetch: [@Sendable () -> Void] = []
    var willTrackRegion: [@Sendable (DatabaseRegion) -> Void] = []
    var databaseDidChange: [@Sendable () -> Void] = []
    var didFail: [@Sendable (any Error) -> Void] = []
    var didCancel: [@Sendable () -> Void] = []

    mutating func add(
        willStart: (@Sendable () -> Void)?, willFetch: (@Sendable () -> Void)?,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?, databaseDidChange: (@Sendable () -> Void)?,
        didFail: (@Sendable (any Error) -> Void)?, didCancel: (@Sendable () -> Void)?)
    {
        if let willStart { self.willStart.append(willStart) }
        if let willFetch { self.willFetch.append(willFetch) }
        if let willTrackRegion { self.willTrackRegion.append(willTrackRegion) }
        if let databaseDidChange { self.databaseDidChange.append(databaseDidChange) }
        if let didFail { self.didFail.append(didFail) }
        if let didCancel { self.didCancel.append(didCancel) }
    }
}

/// The last value of `removeDuplicates`. `Sendable` through its mutex.
final class PreviousValue<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    /// Stores `newValue`; returns whether it duplicates the previous one.
    func replace(with newValue: Value, isDuplicate: (Value, Value) -> Bool) -> Bool {
        value.withLock { previous in
            defer { previous = newValue }
            guard let previous else { return false }
            return isDuplicate(previous, newValue)
        }
    }
}
