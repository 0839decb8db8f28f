/// A type-erased request: any request, seen as a request of `RowDecoder`.
///
/// ```swift
/// let request = AnyFetchRequest(Player.select(Column("name"))).asRequest(of: String.self)
/// let names = try request.fetchAll(db)
/// ```
public struct AnyFetchRequest<RowDecoder>: FetchRequest {
    private let request: any FetchRequest

    private init(request: any FetchRequest) {
        self.request = request
    }

    /// The request `request`, erased.
    public init(_ request: some FetchRequest<RowDecoder>) {
        self.init(request: request)
    }

    /// The same request, that fetches values of another type.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(request: request)
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        try request.makePreparedRequest(db, forSingleResult: singleResult)
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try request.fetchCount(db)
    }

    public var sqlSubquery: SQLSubquery { request.sqlSubquery }
}
