import CipherDB
import Testing

/// `including(all:)`: the rows of to-many associations, fetched by one more
/// statement per association, and the records decoded from them.
@Suite struct AssociationPrefetchTests {
    struct Author: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var name: String
        static let books = hasMany(Book.self)
        static let awards = hasMany(Award.self, through: books, using: Book.awards)
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var authorId: Int64?
        var title: String
        var year: Int
        static let author = belongsTo(Author.self)
        static let awards = hasMany(Award.self)
    }

    struct Award: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var bookId: Int64
        var name: String
    }

    /// Authors 1: Alice (books 1 "Dune" 1965 and 2 "Emma" 1990), 2: Bob
    /// (book 3 "Ivanhoe" 1980), 3: Carol (no book); book 4 "Anonymous" has
    /// no author. Awards 1 and 2 for Dune, 3 for Ivanhoe.
    func makeDatabase(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.column("authorId", .integer).references("author")
                t.column("title", .text).notNull()
                t.column("year", .integer).notNull()
            }
            try db.create(table: "award") { t in
                t.primaryKey("id", .integer)
                t.column("bookId", .integer).notNull().references("book")
                t.column("name", .text).notNull()
            }
            try Author(id: 1, name: "Alice").insert(db)
            try Author(id: 2, name: "Bob").insert(db)
            try Author(id: 3, name: "Carol").insert(db)
            try Book(id: 1, authorId: 1, title: "Dune", year: 1965).insert(db)
            try Book(id: 2, authorId: 1, title: "Emma", year: 1990).insert(db)
            try Book(id: 3, authorId: 2, title: "Ivanhoe", year: 1980).insert(db)
            try Book(id: 4, authorId: nil, title: "Anonymous", year: 2000).insert(db)
            try Award(id: 1, bookId: 1, name: "Hugo").insert(db)
            try Award(id: 2, bookId: 1, name: "Nebula").insert(db)
            try Award(id: 3, bookId: 3, name: "Booker").insert(db)
        }
        return fixture
    }

    /// The SELECT statements that `body` runs on the connection, with their
    /// arguments.
    func selectStatements(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        let recorder = SQLRecorder()
        db.trace { event in
            if case .statement(let statement) = event { recorder.record(statement.expandedSQL) }
        }
        defer { db.trace(nil) }
        try body()
        return recorder.values.filter { $0.hasPrefix("SELECT") || $0.hasPrefix("WITH") }
            .filter { !$0.contains("sqlite_") && !$0.contains("pragma_") }
    }

    // MARK: - Rows

    @Test(arguments: DatabaseKind.allCases)
    func aSecondStatementFetchesTheRowsOfAllParentsByForeignKey(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.including(all: Author.books.order(Column("year"))).order(Column("id"))
            var rows: [Row] = []
            let statements = try selectStatements(db) { rows = try Row.fetchAll(db, request) }
            #expect(statements == [
                #"SELECT * FROM "author" ORDER BY "id""#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (1, 2, 3) ORDER BY "year""#,
            ])
            #expect(rows.map(\.unscoped) == [["id": 1, "name": "Alice"], ["id": 2, "name": "Bob"], ["id": 3, "name": "Carol"]])
            #expect(rows[0].prefetchedRows.keys == ["books"])
            #expect(rows[0].prefetchedRows["books"] == [
                ["id": 1, "authorId": 1, "title": "Dune", "year": 1965, "grdb_authorId": 1],
                ["id": 2, "authorId": 1, "title": "Emma", "year": 1990, "grdb_authorId": 1],
            ])
            #expect(rows[1].prefetchedRows["books"]?.map { $0["title"] as String } == ["Ivanhoe"])
            #expect(rows[2].prefetchedRows["books"] == [])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func noRowMeansNoSecondStatement(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.none().including(all: Author.books)
            var rows: [Row] = []
            let statements = try selectStatements(db) { rows = try Row.fetchAll(db, request) }
            #expect(rows.isEmpty)
            #expect(statements == [#"SELECT * FROM "author" WHERE 0"#])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func fetchOnePrefetchesForItsRowOnly(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.filter(key: 2).including(all: Author.books)
            var row: Row?
            let statements = try selectStatements(db) { row = try Row.fetchOne(db, request) }
            #expect(statements == [
                #"SELECT * FROM "author" WHERE "id" = 2"#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" = 2"#,
            ])
            #expect(row?.prefetchedRows["books"]?.count == 1)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func prefetchedAssociationsAreFilteredSelectedAndKeyed(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author
                .including(all: Author.books.filter(Column("year") < 1985).select(Column("title")).forKey("classics"))
                .including(all: Author.books.annotated(with: (Column("year") / 10).forKey("decade")).forKey("everything"))
                .order(Column("id"))
            var rows: [Row] = []
            let statements = try selectStatements(db) { rows = try Row.fetchAll(db, request) }
            #expect(statements.dropFirst() == [
                #"SELECT "title", "authorId" AS "grdb_authorId" FROM "book" WHERE ("year" < 1985) AND ("authorId" IN (1, 2, 3))"#,
                #"SELECT *, "year" / 10 AS "decade", "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (1, 2, 3)"#,
            ])
            #expect(rows[0].prefetchedRows.keys == ["classics", "everything"])
            #expect(rows[0].prefetchedRows["classics"] == [["title": "Dune", "grdb_authorId": 1]])
            #expect(rows[0].prefetchedRows["everything"]?.map { $0["decade"] as Int } == [196, 199])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func prefetchedAssociationsNestAndIncludeToOneAssociations(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author
                .including(all: Author.books
                    .including(all: Book.awards.order(Column("name")))
                    .including(required: Book.author.forKey("writer"))
                    .order(Column("id")))
                .order(Column("id"))
            var rows: [Row] = []
            let statements = try selectStatements(db) { rows = try Row.fetchAll(db, request) }
            #expect(statements == [
                #"SELECT * FROM "author" ORDER BY "id""#,
                #"SELECT "book".*, "book"."authorId" AS "grdb_authorId", "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" WHERE "book"."authorId" IN (1, 2, 3) ORDER BY "book"."id""#,
                #"SELECT *, "bookId" AS "grdb_bookId" FROM "award" WHERE "bookId" IN (1, 2, 3) ORDER BY "name""#,
            ])
            let dune = try #require(rows[0].prefetchedRows["books"]?.first)
            #expect(dune.scopes["writer"] == ["id": 1, "name": "Alice"])
            #expect(dune.prefetchedRows["awards"]?.map { $0["name"] as String } == ["Hugo", "Nebula"])
            // Keys are found at any depth.
            #expect(rows[0].prefetchedRows.keys == ["books"])
            #expect(rows[1].prefetchedRows["books"]?[0].prefetchedRows["awards"]?.count == 1)
            #expect(rows[0].prefetchedRows["books"]?[1].prefetchedRows["awards"] == [])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aHasManyThroughAssociationIsPrefetchedThroughItsPivot(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.including(all: Author.awards.order(Column("id"))).order(Column("id"))
            var rows: [Row] = []
            let statements = try selectStatements(db) { rows = try Row.fetchAll(db, request) }
            #expect(statements.last == #"""
                SELECT "award".*, "book"."authorId" AS "grdb_authorId" FROM "award" \#
                JOIN "book" ON ("book"."id" = "award"."bookId") AND ("book"."authorId" IN (1, 2, 3)) \#
                ORDER BY "award"."id"
                """#)
            #expect(rows[0].prefetchedRows.keys == ["awards"])
            #expect(rows[0].prefetchedRows["awards"] == [
                ["id": 1, "bookId": 1, "name": "Hugo", "grdb_authorId": 1],
                ["id": 2, "bookId": 1, "name": "Nebula", "grdb_authorId": 1],
            ])
            #expect(rows[0].scopes.isEmpty)
            #expect(rows[2].prefetchedRows["awards"] == [])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aToOneAssociationCanIncludeAPrefetchedOne(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Book
                .including(optional: Book.author.including(all: Author.books.forKey("authorBooks").order(Column("id"))))
                .order(Column("id"))
            var rows: [Row] = []
            let statements = try selectStatements(db) { rows = try Row.fetchAll(db, request) }
            #expect(statements == [
                #"SELECT "book".*, "author".* FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id""#,
                #"SELECT "book".*, "author"."id" AS "grdb_id" FROM "book" JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."id" IN (1, 2)) ORDER BY "book"."id""#,
            ])
            #expect(rows[0].prefetchedRows.keys == ["authorBooks"])
            let author = try #require(rows[0].scopes["author"])
            #expect(author.unscoped == ["id": 1, "name": "Alice"])
            #expect(author.prefetchedRows["authorBooks"]?.map { $0["title"] as String } == ["Dune", "Emma"])
            // The book without author has an empty array.
            #expect(rows[3].scopes["author"]?.prefetchedRows["authorBooks"] == [])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func compositeKeysFilterWithTheParentRequestAsACommonTableExpression(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE series (publisher TEXT, code TEXT, PRIMARY KEY (publisher, code));
                CREATE TABLE volume (publisher TEXT, code TEXT, title TEXT,
                    FOREIGN KEY (publisher, code) REFERENCES series (publisher, code));
                INSERT INTO series VALUES ('p', 'a'), ('p', 'b'), ('q', 'a');
                INSERT INTO volume VALUES ('p', 'a', 'one'), ('q', 'a', 'two'), ('q', 'a', 'three');
                """)
            let series = Table("series")
            let request = series.including(all: series.hasMany(Table("volume"))).filter(Column("code") == "a").order(Column("publisher"))
            var rows: [Row] = []
            let statements = try selectStatements(db) { rows = try Row.fetchAll(db, request) }
            #expect(statements.last == #"""
                WITH "grdb_base" AS (SELECT "publisher", "code" FROM "series" WHERE "code" = 'a') \#
                SELECT *, "publisher" AS "grdb_publisher", "code" AS "grdb_code" FROM "volume" \#
                WHERE ("publisher", "code") IN "grdb_base"
                """#)
            #expect(rows.map { $0.prefetchedRows["volumes"]?.map { $0["title"] as String } } == [["one"], ["two", "three"]])
        }
    }

    // MARK: - Records

    struct AuthorInfo: Decodable, FetchableRecord, Equatable {
        var author: Author
        var books: [Book]
    }

    @Test(arguments: DatabaseKind.allCases)
    func recordsDecodeArraysOfPrefetchedRecords(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let infos = try Author.including(all: Author.books.order(Column("id"))).order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.author.name) == ["Alice", "Bob", "Carol"])
            #expect(infos.map { $0.books.map(\.title) } == [["Dune", "Emma"], ["Ivanhoe"], []])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func recordsDecodeSetsAndNestedRecordsOfPrefetchedRows(_ kind: DatabaseKind) throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var awards: Set<Award>
        }
        struct AuthorBooks: Decodable, FetchableRecord {
            var author: Author
            var books: [BookInfo]
        }
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.filter(key: 1).including(all: Author.books.including(all: Book.awards).order(Column("id")))
            let info = try #require(try AuthorBooks.fetchOne(db, request))
            #expect(info.books.map(\.book.title) == ["Dune", "Emma"])
            #expect(info.books[0].awards == [Award(id: 1, bookId: 1, name: "Hugo"), Award(id: 2, bookId: 1, name: "Nebula")])
            #expect(info.books[1].awards.isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aToOneScopeDecodesItsPrefetchedRecords(_ kind: DatabaseKind) throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: AuthorInfo?
        }
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Book.including(optional: Book.author.including(all: Author.books.order(Column("id")))).order(Column("id"))
            let infos = try BookInfo.fetchAll(db, request)
            #expect(infos.map(\.book.title) == ["Dune", "Emma", "Ivanhoe", "Anonymous"])
            #expect(infos[2].author?.books.map(\.title) == ["Ivanhoe"])
            #expect(infos[3].author == nil)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func rowSubscriptsDecodePrefetchedRecords(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let row = try #require(try Row.fetchOne(db, Author.filter(key: 1).including(all: Author.books.order(Column("id")))))
            let books: [Book] = row["books"]
            let bookSet: Set<Book> = row["books"]
            #expect(books.map(\.title) == ["Dune", "Emma"])
            #expect(bookSet == Set(books))
            #expect(throws: RowDecodingError.self) { try row.decode([Book].self, forKey: "awards") }
            do {
                _ = try row.decode([Book].self, forKey: "awards")
            } catch {
                #expect("\(error)" == #"key for prefetched rows not found: "awards" - available keys: ["books"]"#)
            }
        }
    }

    // MARK: - Rows with prefetched rows

    @Test(arguments: DatabaseKind.allCases)
    func prefetchedRowsTakePartInEqualityAndDescriptions(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let plain = try #require(try Row.fetchOne(db, Author.filter(key: 3)))
            let empty = try #require(try Row.fetchOne(db, Author.filter(key: 3).including(all: Author.books)))
            let full = try #require(try Row.fetchOne(db, Author.filter(key: 1).including(all: Author.books)))
            #expect(plain.prefetchedRows.isEmpty)
            #expect(!empty.prefetchedRows.isEmpty)
            #expect(plain != empty)
            #expect(plain == empty.unscoped)
            #expect(empty.unscoped.prefetchedRows.isEmpty)
            #expect(empty == empty.copy())
            #expect(full.copy().prefetchedRows["books"]?.count == 2)
            #expect(full.description == #"[id:1 name:"Alice"]"#)
            #expect(full.debugDescription == """
                ▿ [id:1 name:"Alice"]
                  + books: 2 rows
                """)
            #expect(empty.debugDescription == """
                ▿ [id:3 name:"Carol"]
                  + books: 0 row
                """)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aTableCanPrefetch(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let author = Table("author")
            let rows = try Row.fetchAll(db, author.including(all: author.hasMany(Table("book"))).order(Column("id")))
            #expect(rows.map { $0.prefetchedRows["books"]?.count } == [2, 1, 0])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func joinedToManyAssociationsHaveSingularKeys(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let row = try #require(try Row.fetchOne(db, Author.including(required: Author.books.order(Column("id")))))
            #expect(row.scopes["book"]?["title"] as String? == "Dune")
            let kept = try #require(try Row.fetchOne(db, Author.including(required: Author.books.forKey("works"))))
            #expect(Set(kept.scopes.names) == ["work"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func keysKeepTheirTrailingDigits(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.filter(key: 1)
                .including(required: Author.books.filter(Column("year") < 1980).forKey("books2"))
                .including(all: Author.books.forKey("books3"))
            let row = try #require(try Row.fetchOne(db, request))
            #expect(Set(row.scopes.names) == ["book2"])
            #expect(row.prefetchedRows.keys == ["books3"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aTableCanPrefetchThroughAPivot(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let author = Table("author")
            let book = Table("book")
            let awards = author.hasMany(Row.self, through: author.hasMany(book), using: book.hasMany(Table("award")))
            let rows = try Row.fetchAll(db, author.including(all: awards.order(Column("id"))).order(Column("id")))
            #expect(rows.map { $0.prefetchedRows["awards"]?.map { $0["name"] as String } } == [["Hugo", "Nebula"], ["Booker"], []])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func prefetchedTablesArePartOfTheRegionOfTheRequest(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let region = try Author.including(all: Author.awards).databaseRegion(db)
            #expect(region.description == "author(id,name),award(bookId,id,name),book(authorId,id)")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anObservationOfAPrefetchingRequestTracksThePrefetchedTablesWhileNoRowLeadsToThem(_ kind: DatabaseKind) async throws {
        let fixture = try makeDatabase(kind)
        try await fixture.writer.write { (db) throws in
            try Award.deleteAll(db)
            try Book.deleteAll(db)
            try Author.deleteAll(db)
        }
        let request = Author.including(all: Author.books.order(Column("id"))).order(Column("id"))
        // The first fetch finds no author, hence runs no statement on
        // `book`: the region comes from the request, not from the
        // statements it ran.
        let observation = ValueObservation.trackingConstantRegion { db in
            try Row.fetchAll(db, request).map { $0.prefetchedRows["books"]?.count ?? -1 }
        }
        let recorder = ValueRecorder<[Int]>()
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues([]) }
        try await fixture.writer.write { (db) throws in try Author(id: 1, name: "Alice").insert(db) }
        try await recorder.wait { $0 == kind.initialValues([]) + [[0]] }
        try await fixture.writer.write { (db) throws in try Book(id: 1, authorId: 1, title: "Dune", year: 1965).insert(db) }
        try await recorder.wait { $0 == kind.initialValues([]) + [[0], [1]] }
        cancellable.cancel()
        #expect(recorder.errors.isEmpty)
        try await fixture.writer.read { (db) throws in
            #expect(try request.makePreparedRequest(db).statement.databaseRegion.description
                == "author(id,name),book(authorId,id,title,year)")
        }
    }
}
