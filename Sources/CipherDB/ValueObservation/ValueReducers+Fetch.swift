extension ValueReducers {
    /// The reducer of ``ValueObservation/tracking(_:)``: it notifies every
    /// fetched value.
    public struct Fetch<Value: Sendable>: ValueReducer {
        /// The fetch function of the observation.
        public struct _Fetcher: _ValueReducerFetcher {
            let fetch: @Sendable (Database) throws -> Value

            public func fetch(_ db: Database) throws -> Value {
                try fetch(db)
            }
        }

        private let fetch: @Sendable (Database) throws -> Value

        init(fetch: @escaping @Sendable (Database) throws -> Value) {
            self.fetch = fetch
        }

        public func _makeFetcher() -> _Fetcher {
            _Fetcher(fetch: fetch)
        }

        public func _value(_ fetched: Value) -> Value? {
            fetched
        }
    }
}
