import CipherDB
import Testing

/// Associations through other associations: an author's countries are the
/// countries of their books.
@Suite struct AssociationThroughTests {
    struct Country: Codable, FetchableRecord, PersistableRecord {
        var code: String
        var name: String
    }

    struct Author: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        static let books = hasMany(Book.self)
        static let countries = hasMany(Country.self, through: books, using: Book.country)
    }

    struct Book: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var authorId: Int64
        var countryCode: String
        static let author = belongsTo(Author.self)
        static let country = belongsTo(Country.self)
        static let authorBooks = hasMany(Book.self, through: author, using: Author.books, key: "authorBooks")
    }

    /// Countries FR, DE, IT; authors 1: Alice (books in FR and DE), 2: Bob
    /// (a book in FR).
    func makeDatabase(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "country") { t in
                t.primaryKey("code", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.column("authorId", .integer).notNull().references("author")
                t.column("countryCode", .text).notNull().references("country")
            }
            for (code, name) in [("FR", "France"), ("DE", "Germany"), ("IT", "Italy")] {
                try Country(code: code, name: name).insert(db)
            }
            try Author(id: 1, name: "Alice").insert(db)
            try Author(id: 2, name: "Bob").insert(db)
            try Book(id: 1, authorId: 1, countryCode: "FR").insert(db)
            try Book(id: 2, authorId: 1, countryCode: "DE").insert(db)
            try Book(id: 3, authorId: 2, countryCode: "FR").insert(db)
        }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func joiningThroughAPivotJoinsThePivotThenTheDestination(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author
                .joining(required: Author.countries.filter(Column("name") == "Germany"))
                .distinct()
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                SELECT DISTINCT "author".* FROM "author" JOIN "book" ON "book"."authorId" = "author"."id" \#
                JOIN "country" ON ("country"."code" = "book"."countryCode") AND ("country"."name" = ?)
                """#)
            #expect(try request.fetchAll(db).map(\.name) == ["Alice"])
            let included = Author.including(required: Author.countries)
            #expect(try included.makePreparedRequest(db).statement.sql == #"""
                SELECT "author".*, "country".* FROM "author" JOIN "book" ON "book"."authorId" = "author"."id" \#
                JOIN "country" ON "country"."code" = "book"."countryCode"
                """#)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aPivotJoinedTwiceIsMergedWithItsJoins(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.including(optional: Author.books).including(required: Author.countries)
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                SELECT "author".*, "book".*, "country".* FROM "author" JOIN "book" ON "book"."authorId" = "author"."id" \#
                JOIN "country" ON "country"."code" = "book"."countryCode"
                """#)
            let row = try #require(try Row.fetchOne(db, request.order(Column("id"))))
            #expect(row.scopes["book"]?["countryCode"] as String? == "FR")
            #expect(row.scopesTree["country"]?["name"] as String? == "France")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func requestForAnAssociationThroughAPivotJoinsItBack(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let alice = Author(id: 1, name: "Alice")
            let request = alice.request(for: Author.countries)
            #expect(try request.makePreparedRequest(db).statement.sql == #"""
                SELECT "country".* FROM "country" JOIN "book" ON ("book"."countryCode" = "country"."code") \#
                AND ("book"."authorId" = ?)
                """#)
            #expect(try request.order(Column("code")).fetchAll(db).map(\.code) == ["DE", "FR"])
            let book = try #require(try Book.fetchOne(db, key: 3))
            #expect(try book.request(for: Book.authorBooks).fetchAll(db).map(\.id) == [3])
            #expect(try Author.annotated(with: Author.countries.count).order(Column("id"))
                .asRequest(of: Row.self).fetchAll(db).map { $0["countryCount"] as Int } == [2, 1])
        }
    }
}
