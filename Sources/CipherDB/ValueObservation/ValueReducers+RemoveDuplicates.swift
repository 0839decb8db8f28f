extension ValueReducers {
    /// The reducer of ``ValueObservation/removeDuplicates()``: it does not
    /// notify a value equal to the previous one.
    public struct RemoveDuplicates<Base: _ValueReducer>: ValueReducer {
        private var base: Base
        private var previousValue: Base.Value?
        private let predicate: (Base.Value, Base.Value) -> Bool

        init(_ base: Base, predicate: @escaping (Base.Value, Base.Value) -> Bool) {
            self.base = base
            self.predicate = predicate
        }

        public func _makeFetcher() -> Base.Fetcher {
            base._makeFetcher()
        }

        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            if let previousValue, predicate(previousValue, value) { return nil }
            previousValue = value
            return value
        }
    }
}

extension ValueObservation {
    /// An observation that skips values the predicate finds equal to the
    /// previous one.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .removeDuplicates { $0.map(\.id) == $1.map(\.id) }
    /// ```
    public func removeDuplicates(by predicate: sending @escaping (Reducer.Value, Reducer.Value) -> Bool)
        -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>>
    {
        // `sending`: the caller keeps no other use of the predicate, and
        // the observation calls it serially, from its reducer only. That
        // is what lets `==`, which is not `@Sendable`, be used here.
        nonisolated(unsafe) let predicate = predicate
        return mapReducer { ValueReducers.RemoveDuplicates($0, predicate: predicate) }
    }
}

extension ValueObservation where Reducer.Value: Equatable {
    /// An observation that skips values equal to the previous one.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchCount(db) }
    ///     .removeDuplicates()
    /// ```
    public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        mapReducer { ValueReducers.RemoveDuplicates($0, predicate: ==) }
    }
}
