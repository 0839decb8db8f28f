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
/// let cancellable = observation.start(in: dbQueue, scheduling: .async(onQueue: queue)) { error in
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
///
/// `Reducer` fetches and transforms the values: ``ValueReducers/Fetch``
/// for ``tracking(_:)``, wrapped by ``map(_:)``, ``removeDuplicates()``…
public struct ValueObservation<Reducer: ValueReducer>: Sendable {
    /// The debugging callbacks.
    var events = ValueObservationEvents()

    /// Whether the fetches may write: they then run on the writer, in a
    /// write transaction, instead of a read-only one. Default: false.
    ///
    /// ```swift
    /// var observation = ValueObservation.tracking { db in
    ///     try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS scratch(a)")
    ///     return try Player.fetchAll(db)
    /// }
    /// observation.requiresWriteAccess = true
    /// ```
    public var requiresWriteAccess = false

    /// How the observed region is known.
    var trackingMode: ValueObservationTrackingMode

    /// Makes the reducer of one start: each start has its own state.
    var makeReducer: @Sendable () -> Reducer

    init(trackingMode: ValueObservationTrackingMode, makeReducer: @escaping @Sendable () -> Reducer) {
        self.trackingMode = trackingMode
        self.makeReducer = makeReducer
    }

    /// The same observation, with another reducer around this one.
    func mapReducer<R>(_ transform: @escaping @Sendable (Reducer) -> R) -> ValueObservation<R> {
        let makeReducer = self.makeReducer
        var observation = ValueObservation<R>(trackingMode: trackingMode, makeReducer: { transform(makeReducer()) })
        observation.events = events
        observation.requiresWriteAccess = requiresWriteAccess
        return observation
    }
}

/// How an observation knows the region it observes.
enum ValueObservationTrackingMode: Sendable {
    /// Regions given in advance.
    case constantRegion([any DatabaseRegionConvertible])
    /// The region read by the initial fetch, kept.
    case constantRegionRecordedFromSelection
    /// The region read by the last fetch.
    case nonConstantRegionRecordedFromSelection
}

// MARK: - Creating observations

extension ValueObservation {
    /// An observation of the values of `fetch`, which tracks the region
    /// that `fetch` reads, fetch after fetch.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try Player.fetchAll(db)
    /// }
    /// ```
    public static func tracking<Value>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(trackingMode: .nonConstantRegionRecordedFromSelection) { ValueReducers.Fetch(fetch: fetch) }
    }

    /// An observation of the values of `fetch`, which tracks the region
    /// read by the initial fetch: cheaper than ``tracking(_:)``, for a
    /// fetch that always reads the same region.
    ///
    /// ```swift
    /// let observation = ValueObservation.trackingConstantRegion { db in
    ///     try Player.fetchCount(db)
    /// }
    /// ```
    public static func trackingConstantRegion<Value>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(trackingMode: .constantRegionRecordedFromSelection) { ValueReducers.Fetch(fetch: fetch) }
    }

    /// An observation of the values of `fetch`, which tracks the regions
    /// given here, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(region: Table("player")) { db in
    ///     try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player")
    /// }
    /// ```
    public static func tracking<Value>(
        region: any DatabaseRegionConvertible,
        _ otherRegions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        tracking(regions: [region] + otherRegions, fetch: fetch)
    }

    /// An observation of the values of `fetch`, which tracks the regions
    /// given here, whatever `fetch` reads.
    public static func tracking<Value>(
        regions: [any DatabaseRegionConvertible],
        fetch: @escaping @Sendable (Database) throws -> Value) -> Self
        where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(trackingMode: .constantRegion(regions)) { ValueReducers.Fetch(fetch: fetch) }
    }
}

// MARK: - Starting

extension ValueObservation {
    /// Starts the observation: `onChange` receives the initial value, then
    /// a value after each relevant commit; `onError` receives the error
    /// that ends the observation, if any. Both run as `scheduler` says (by
    /// default, on the main actor).
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbPool, scheduling: .async(onQueue: queue)) { error in
    ///     ...
    /// } onChange: { players in
    ///     ...
    /// }
    /// ```
    ///
    /// On a ``DatabaseQueue``, fetches run on the writer; on a
    /// ``DatabasePool``, the initial fetch runs on the writer and later
    /// fetches on readers, one at a time, each started after the commit
    /// that triggered it. On a read-only database or a
    /// ``DatabaseSnapshot``, the initial value is the only one.
    ///
    /// The observation stops when the cancellable is cancelled or
    /// deallocated.
    public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .mainActor,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        events.willStart.forEach { $0() }
        let reader = Self.unwrap(reader)
        let runner: any ValueObservationRunning
        if let writer = reader as? any DatabaseWriter, !writer.configuration.readonly {
            runner = ValueObservationRunner(
                observation: self, writer: writer, scheduler: scheduler, onError: onError, onChange: onChange)
        } else {
            // The database does not change: one value.
            runner = ValueObservationSingleFetch(
                observation: self, reader: reader, scheduler: scheduler, onError: onError, onChange: onChange)
        }
        runner.start()
        return AnyDatabaseCancellable { runner.cancel() }
    }

    /// The values of the observation, as an async sequence. Each iteration
    /// starts its own observation, which stops when the iteration ends.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue) {
    ///     print("players: \(players)")
    /// }
    /// ```
    public func values(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded)
        -> AsyncValueObservation<Reducer.Value>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }

    /// The reader that type-erased readers wrap: the kind of database
    /// decides how to observe.
    private static func unwrap(_ reader: any DatabaseReader) -> any DatabaseReader {
        if let reader = reader as? AnyDatabaseReader { return unwrap(reader.base) }
        if let writer = reader as? AnyDatabaseWriter { return unwrap(writer.base) }
        return reader
    }
}

// MARK: - Debugging

extension ValueObservation {
    /// Calls the given functions at each step of the observation, for
    /// debugging.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .handleEvents(didReceiveValue: { players in print(players.count) })
    /// ```
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil) -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        var observation = mapReducer { reducer in
            ValueReducers.Trace(base: reducer, willFetch: willFetch ?? {}, didReceiveValue: didReceiveValue ?? { _ in })
        }
        observation.events.add(willStart: willStart, willTrackRegion: willTrackRegion,
                               databaseDidChange: databaseDidChange, didFail: didFail, didCancel: didCancel)
        return observation
    }

    /// Prints every step of the observation, prefixed, to `stream` or to
    /// the standard output. Values are printed: use it only where they
    /// may be seen.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchCount(db) }
    ///     .print("players")
    /// // players: start, players: fetch, players: value: 3…
    /// ```
    public func print(_ prefix: String = "", to stream: sending (any TextOutputStream)? = nil)
        -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        let output = SerializedOutputStream(stream)
        let label = prefix.isEmpty ? "" : "\(prefix): "
        return handleEvents(
            willStart: { output.write("\(label)start") },
            willFetch: { output.write("\(label)fetch") },
            willTrackRegion: { output.write("\(label)tracked region: \($0)") },
            databaseDidChange: { output.write("\(label)database did change") },
            didReceiveValue: { output.write("\(label)value: \($0)") },
            didFail: { output.write("\(label)failure: \($0)") },
            didCancel: { output.write("\(label)cancel") })
    }
}

/// The output of ``ValueObservation/print(_:to:)``, written from any
/// thread. `Sendable` through its mutex, which owns the stream (it was
/// `sending`: no one else uses it).
final class SerializedOutputStream: Sendable {
    private let stream: Mutex<(any TextOutputStream)?>

    init(_ stream: sending (any TextOutputStream)?) {
        self.stream = Mutex(stream)
    }

    func write(_ string: String) {
        stream.withLock { stream in
            if stream == nil {
                Swift.print(string)
            } else {
                stream!.write(string)
            }
        }
    }
}

/// The debugging callbacks of an observation.
struct ValueObservationEvents: Sendable {
    var willStart: [@Sendable () -> Void] = []
    var willTrackRegion: [@Sendable (DatabaseRegion) -> Void] = []
    var databaseDidChange: [@Sendable () -> Void] = []
    var didFail: [@Sendable (any Error) -> Void] = []
    var didCancel: [@Sendable () -> Void] = []

    mutating func add(
        willStart: (@Sendable () -> Void)?,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?, databaseDidChange: (@Sendable () -> Void)?,
        didFail: (@Sendable (any Error) -> Void)?, didCancel: (@Sendable () -> Void)?)
    {
        if let willStart { self.willStart.append(willStart) }
        if let willTrackRegion { self.willTrackRegion.append(willTrackRegion) }
        if let databaseDidChange { self.databaseDidChange.append(databaseDidChange) }
        if let didFail { self.didFail.append(didFail) }
        if let didCancel { self.didCancel.append(didCancel) }
    }
}
