/// The fetch of a ``ValueReducer``: it runs on the connection's queue, and
/// may run concurrently with other fetches of the same observation (on
/// the readers of a ``DatabasePool``), hence `Sendable`.
public protocol _ValueReducerFetcher: Sendable {
    /// The fetched value, before reduction.
    associatedtype Value

    /// Fetches, inside a transaction.
    func fetch(_ db: Database) throws -> Value
}

/// The base of ``ValueReducer``: see it.
public protocol _ValueReducer: SendableMetatype {
    /// The type of the fetch.
    associatedtype Fetcher: _ValueReducerFetcher

    /// The type of the observed values.
    associatedtype Value: Sendable

    /// Makes the fetch of the observation.
    func _makeFetcher() -> Fetcher

    /// The value to notify for a fetched value, or nil to notify nothing.
    /// Calls are serialized, in the order of the fetches: a reducer may
    /// keep state (``ValueObservation/removeDuplicates()`` remembers the
    /// last value).
    mutating func _value(_ fetched: Fetcher.Value) throws -> Value?
}

/// The type that fetches and transforms the values of a
/// ``ValueObservation``: ``ValueReducers/Fetch`` for
/// ``ValueObservation/tracking(_:)``, wrapped by each transformation
/// (``ValueReducers/Map``, ``ValueReducers/RemoveDuplicates``…).
///
/// A reducer is not `Sendable`: the observation never runs `_value(_:)`
/// concurrently. Only its fetcher crosses threads.
public protocol ValueReducer: _ValueReducer {}

/// The namespace of the value reducers.
public enum ValueReducers {}
