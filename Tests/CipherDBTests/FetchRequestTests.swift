import CipherDB
import Foundation
import Testing

/// Fetching rows, values and records from a request of another type, and
/// the API of `SQLRequest`.
@Suite struct FetchRequestTests {
    struct Name: FetchableRecord, Hashable {
        var name: String
        init(row: Row) throws {
            name = try row.decode(forColumn: "name")
        }
    }

    static let namesSQL = "SELECT 'Arthur' AS name, 1 AS score UNION ALL SELECT 'Barbara', 2"

    @Test func rowsFetchFromARequestOfAnotherType() throws {
        try DatabaseQueue().read { (db) throws in
            let request = SQLRequest<String>(sql: Self.namesSQL)
            #expect(try Row.fetchAll(db, request) == [["name": "Arthur", "score": 1], ["name": "Barbara", "score": 2]])
            #expect(try Row.fetchOne(db, request) == ["name": "Arthur", "score": 1])
            #expect(try Row.fetchSet(db, request).count == 2)
            #expect(try Row.fetchCursor(db, request).map { $0["score"] as Int }.reduce(0, +) == 3)
        }
    }

    @Test func valuesFetchFromARequestOfAnotherType() throws {
        try DatabaseQueue().read { (db) throws in
            let request = SQLRequest<Row>(sql: Self.namesSQL)
            #expect(try String.fetchAll(db, request) == ["Arthur", "Barbara"])
            #expect(try String.fetchOne(db, request) == "Arthur")
            #expect(try Array(String.fetchCursor(db, request)) == ["Arthur", "Barbara"])
            #expect(try String.fetchSet(db, request) == ["Arthur", "Barbara"])
            #expect(try Int.fetchOne(db, SQLRequest(sql: "SELECT 42")) == 42)
            #expect(try URL.fetchAll(db, SQLRequest(sql: "SELECT 'https://example.com'")) == [URL(string: "https://example.com")!])
        }
    }

    @Test func optionalValuesFetchFromARequest() throws {
        try DatabaseQueue().read { (db) throws in
            let request = SQLRequest<Row>(sql: "SELECT NULL UNION ALL SELECT 1")
            #expect(try Optional<Int>.fetchAll(db, request) == [nil, 1])
            // A row with NULL: `.some(nil)`, as in GRDB; nil is "no row".
            #expect(try Int?.fetchOne(db, request) == .some(nil))
            #expect(try Array(Int?.fetchCursor(db, request)) == [nil, 1])
            #expect(try SQLRequest<Int?>(sql: "SELECT NULL UNION ALL SELECT 2").fetchAll(db) == [nil, 2])
        }
    }

    @Test func recordsFetchFromARequestOfAnotherType() throws {
        try DatabaseQueue().read { (db) throws in
            let request = SQLRequest<Row>(sql: Self.namesSQL)
            #expect(try Name.fetchAll(db, request).map(\.name) == ["Arthur", "Barbara"])
            #expect(try Name.fetchOne(db, request)?.name == "Arthur")
            #expect(try Name.fetchSet(db, request).count == 2)
            #expect(try Name.fetchCursor(db, request).map(\.name).reduce("", +) == "ArthurBarbara")
            #expect(try SQLRequest<Name>(sql: Self.namesSQL).fetchOne(db)?.name == "Arthur")
        }
    }

    @Test func sqlRequestWithoutATypeFetchesRows() throws {
        try DatabaseQueue().read { (db) throws in
            let request = SQLRequest(sql: "SELECT ? AS a", arguments: [1])
            let row: Row? = try request.fetchOne(db)
            #expect(row == ["a": 1])
            let interpolated = SQLRequest(literal: "SELECT \(2) AS b")
            #expect(try interpolated.fetchAll(db) == [["b": 2]])
        }
    }

    @Test func sqlRequestPreparesANewStatementUnlessCached() throws {
        try DatabaseQueue().read { (db) throws in
            let request = SQLRequest<Int>(sql: "SELECT 1")
            #expect(try request.makePreparedRequest(db).statement !== request.makePreparedRequest(db).statement)
            let cached = SQLRequest<Int>(sql: "SELECT 1", cached: true)
            #expect(try cached.makePreparedRequest(db).statement === cached.makePreparedRequest(db).statement)
        }
    }

    @Test func anyFetchRequestFetchesAsAnotherType() throws {
        try DatabaseQueue().read { (db) throws in
            let request = AnyFetchRequest(SQLRequest<Row>(sql: Self.namesSQL))
            #expect(try request.fetchCount(db) == 2)
            #expect(try request.asRequest(of: String.self).fetchAll(db) == ["Arthur", "Barbara"])
            #expect(try request.asRequest(of: Name.self).fetchOne(db)?.name == "Arthur")
        }
    }
}
