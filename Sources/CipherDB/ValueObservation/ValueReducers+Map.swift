extension ValueReducers {
    /// The reducer of ``ValueObservation/map(_:)``.
    public struct Map<Base: _ValueReducer, Value: Sendable>: ValueReducer {
        private var base: Base
        private let transform: (Base.Value) throws -> Value

        init(_ base: Base, _ transform: @escaping @Sendable (Base.Value) throws -> Value) {
            self.base = base
            self.transform = transform
        }

        public func _makeFetcher() -> Base.Fetcher {
            base._makeFetcher()
        }

        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Value? {
            try base._value(fetched).map(transform)
        }
    }
}

extension ValueObservation {
    /// An observation of transformed values. The transform runs on the
    /// queue that fetches, not on the queue that receives the values.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .map { players in players.map(\.name) }
    /// ```
    public func map<T>(_ transform: @escaping @Sendable (Reducer.Value) throws -> T)
        -> ValueObservation<ValueReducers.Map<Reducer, T>>
    {
        mapReducer { ValueReducers.Map($0, transform) }
    }
}
