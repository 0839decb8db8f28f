extension ValueReducers {
    /// The reducer of ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``:
    /// it reports each fetch and each notified value.
    public struct Trace<Base: ValueReducer>: ValueReducer {
        /// The fetch of the base reducer, reported before it runs.
        public struct _Fetcher: _ValueReducerFetcher {
            let base: Base.Fetcher
            let willFetch: @Sendable () -> Void

            public func fetch(_ db: Database) throws -> Base.Fetcher.Value {
                willFetch()
                return try base.fetch(db)
            }
        }

        private var base: Base
        private let willFetch: @Sendable () -> Void
        private let didReceiveValue: @Sendable (Base.Value) -> Void

        init(base: Base, willFetch: @escaping @Sendable () -> Void, didReceiveValue: @escaping @Sendable (Base.Value) -> Void) {
            self.base = base
            self.willFetch = willFetch
            self.didReceiveValue = didReceiveValue
        }

        public func _makeFetcher() -> _Fetcher {
            _Fetcher(base: base._makeFetcher(), willFetch: willFetch)
        }

        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            didReceiveValue(value)
            return value
        }
    }
}
