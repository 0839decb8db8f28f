import CipherDB
import Testing

/// A comparison of a column always builds SQL, and never Swift's comparison
/// of two values: a `Bool` in a filter would select all rows or none.
@Suite struct ColumnComparisonTests {
    struct Place: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var title: String
        enum Columns {
            static let title = Column(CodingKeys.title)
        }
    }

    /// The same columns, as an enum of strings (an `Equatable` type).
    enum PlaceColumns: String, ColumnExpression {
        case id, title
    }

    /// Places 1: Berlin, 2: Madrid, 3: Paris.
    func makeDatabase(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "place") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text).notNull()
            }
            for (id, title) in [(1, "Berlin"), (2, "Madrid"), (3, "Paris")] {
                try Place(id: Int64(id), title: title).insert(db)
            }
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func equalityWithAStringSelectsTheMatchingRow(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            #expect(try Place.filter(Column("title") == "Berlin").fetchAll(db).map(\.id) == [1])
            #expect(try Place.filter(Place.Columns.title == "Berlin").fetchAll(db).map(\.id) == [1])
            #expect(try Place.filter(PlaceColumns.title == "Berlin").fetchAll(db).map(\.id) == [1])
            #expect(try Place.filter { $0.title == "Berlin" }.fetchAll(db).map(\.id) == [1])
            let statement = try Place.filter(Column("title") == "Berlin").makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "place" WHERE "title" = ?"#)
            #expect(statement.arguments == ["Berlin"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func inequalityDeletesOnlyTheOtherRows(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.write { (db) throws in
            #expect(try Place.filter(Column("title") != "Madrid").deleteAll(db) == 2)
            #expect(try String.fetchAll(db, sql: "SELECT title FROM place") == ["Madrid"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func comparisonOfTwoColumnsOfAnEnumBuildsSQL(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            // `PlaceColumns` is Equatable: Swift's `==` of two cases must not
            // be chosen where an SQL expression is expected.
            let statement = try Place.filter(PlaceColumns.title == PlaceColumns.id).makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT * FROM "place" WHERE "title" = "id""#)
            #expect(try Place.filter(PlaceColumns.title != PlaceColumns.id).fetchCount(db) == 3)
        }
    }
}
