extension FetchRequest {
    /// The same request, whose rows are adapted: with a request that has
    /// an adapter already, `adapter` applies to the adapted rows.
    ///
    /// ```swift
    /// let request = SQLRequest<Row>(sql: "SELECT 1 AS a, 2 AS b")
    ///     .adapted { _ in ColumnMapping(["value": "b"]) }
    /// let row = try request.fetchOne(db)! // [value:2]
    /// ```
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self> {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}

/// A request whose rows are adapted: see ``FetchRequest/adapted(_:)``.
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        var preparedRequest = try base.makePreparedRequest(db, forSingleResult: singleResult)
        let adapter = try adapter(db)
        if let baseAdapter = preparedRequest.adapter {
            preparedRequest.adapter = ChainedAdapter(first: baseAdapter, second: adapter)
        } else {
            preparedRequest.adapter = adapter
        }
        return preparedRequest
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    public var sqlSubquery: SQLSubquery { base.sqlSubquery }
}

/// Sendable when its base request is: the adapter closure is `@Sendable`.
extension AdaptedFetchRequest: Sendable where Base: Sendable {}
