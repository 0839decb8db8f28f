import CipherDB
import Testing

@Suite struct AssociationTests {
    struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: String
        static let books = hasMany(Book.self)
        enum Columns {
            static let name = Column("name")
        }
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var authorId: Int64?
        var translatorId: Int64?
        var title: String
        var year: Int
        static let author = belongsTo(Author.self)
        static let translator = belongsTo(Author.self, key: "translator", using: ForeignKey(["translatorId"]))
    }

    /// Authors 1: Alice, 2: Bob; books 1: "Ant" (Alice, 1999), 2: "Bee"
    /// (Alice, 2005, translated by Bob), 3: "Cat" (no author, 2010).
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
                t.column("translatorId", .integer)
                t.column("title", .text).notNull()
                t.column("year", .integer).notNull()
            }
            try Author(id: 1, name: "Alice").insert(db)
            try Author(id: 2, name: "Bob").insert(db)
            try Book(id: 1, authorId: 1, translatorId: nil, title: "Ant", year: 1999).insert(db)
            try Book(id: 2, authorId: 1, translatorId: 2, title: "Bee", year: 2005).insert(db)
            try Book(id: 3, authorId: nil, translatorId: nil, title: "Cat", year: 2010).insert(db)
        }
        return fixture
    }

    func sql(_ request: some FetchRequest, _ db: Database) throws -> String {
        try request.makePreparedRequest(db).statement.sql
    }

    @Test(arguments: DatabaseKind.allCases)
    func belongsToJoinsOnTheForeignKeyOfTheSchema(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            #expect(try sql(Book.including(required: Book.author), db) == #"""
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """#)
            #expect(try sql(Book.including(optional: Book.author), db) == #"""
                SELECT "book".*, "author".* FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId"
                """#)
            #expect(try sql(Book.joining(required: Book.author), db) == #"""
                SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """#)
            #expect(try Book.joining(required: Book.author).fetchAll(db).map(\.id) == [1, 2])
            #expect(try Book.joining(optional: Book.author).fetchCount(db) == 3)
        }
    }

    struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Author?
    }

    @Test(arguments: DatabaseKind.allCases)
    func includedTablesAreScopesOfTheRows(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let rows = try Row.fetchAll(db, Book.including(required: Book.author).order(Column("id")))
            #expect(rows.count == 2)
            #expect(rows[0]["title"] as String == "Ant")
            #expect(rows[0].count == 5)
            #expect(rows[0].scopes["author"]?["name"] as String? == "Alice")

            let infos = try Book.including(optional: Book.author).order(Column("id"))
                .asRequest(of: BookInfo.self).fetchAll(db)
            #expect(infos.map(\.book.title) == ["Ant", "Bee", "Cat"])
            #expect(infos.map(\.author?.name) == ["Alice", "Alice", nil])

            // Only one property can be the base row: a second one missing
            // from the row is an error, not a copy of the base record.
            struct Confused: Decodable, FetchableRecord {
                var book: Book
                var translator: Author
            }
            #expect(throws: DecodingError.self) {
                try Book.including(required: Book.author).asRequest(of: Confused.self).fetchAll(db)
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func twoAssociationsToOneTableAreTwoScopes(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Book
                .including(optional: Book.author)
                .including(required: Book.translator)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row["title"] as String == "Bee")
            #expect(row.scopes["author"]?["name"] as String? == "Alice")
            #expect(row.scopes["translator"]?["name"] as String? == "Bob")
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func filtersOfAnAssociationGoToTheJoinCondition(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Book
                .joining(optional: Book.author.filter(Column("name") == "Alice"))
                .filter(Column("year") > 2000)
            #expect(try sql(request, db) == #"""
                SELECT "book".* FROM "book" LEFT JOIN "author" ON ("author"."id" = "book"."authorId") \#
                AND ("author"."name" = ?) WHERE "book"."year" > ?
                """#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 3])
            let required = Book.joining(required: Book.author.filter(Column("name") == "Alice")).order(Column("year").desc)
            #expect(try required.fetchAll(db).map(\.id) == [2, 1])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func hasManyJoinsTheRecordsThatReferToTheOrigin(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.joining(required: Author.books.filter(Column("year") > 2000)).distinct()
            #expect(try sql(request, db) == #"""
                SELECT DISTINCT "author".* FROM "author" JOIN "book" ON ("book"."authorId" = "author"."id") \#
                AND ("book"."year" > ?)
                """#)
            #expect(try request.fetchAll(db).map(\.id) == [1])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aTableJoinedTwiceIsNumbered(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Book
                .joining(required: Book.author)
                .joining(required: Book.translator.filter(Column("name") == "Bob"))
            #expect(try sql(request, db) == #"""
                SELECT "book".* FROM "book" JOIN "author" "author1" ON "author1"."id" = "book"."authorId" \#
                JOIN "author" "author2" ON ("author2"."id" = "book"."translatorId") AND ("author2"."name" = ?)
                """#)
            #expect(try request.fetchAll(db).map(\.id) == [2])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aliasesLetOtherClausesReferToAJoinedTable(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let authorAlias = TableAlias<Author>()
            let request = Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter(authorAlias[Column("name")] == "Alice" || Column("year") < 2000)
                .order(authorAlias[Column("name")], Column("title").desc)
            #expect(try sql(request, db) == #"""
                SELECT "book".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \#
                WHERE ("author"."name" = ?) OR ("book"."year" < ?) ORDER BY "author"."name", "book"."title" DESC
                """#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 1])

            let byMember = Book.joining(required: Book.author.aliased(authorAlias)).filter(authorAlias.name == "Alice")
            #expect(try byMember.fetchAll(db).map(\.id) == [1, 2])

            let b = TableAlias(name: "b")
            let aliased = Book.aliased(b).filter(b[Column("year")] > 2000)
            #expect(try sql(aliased, db) == #"SELECT "b".* FROM "book" "b" WHERE "b"."year" > ?"#)
            #expect(try aliased.fetchAll(db).map(\.id) == [2, 3])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func existsOfAnAliasTellsWhetherAnOptionalJoinFoundARow(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let authorAlias = TableAlias<Author>()
            let orphans = Book.joining(optional: Book.author.aliased(authorAlias)).filter(!authorAlias.exists)
            #expect(try sql(orphans, db) == #"""
                SELECT "book".* FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId" \#
                WHERE "author"."id" IS NULL
                """#)
            #expect(try orphans.fetchAll(db).map(\.id) == [3])
            let authored = Book.joining(optional: Book.author.aliased(authorAlias)).filter(authorAlias.exists)
            #expect(try authored.fetchAll(db).map(\.id) == [1, 2])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anAssociationCanSelectAllColumnsButSome(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Book.including(required: Book.author.select(.allColumns(excluding: ["id"])))
            #expect(try sql(request, db) == #"""
                SELECT "book".*, "author"."name" FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """#)
            let row = try #require(try request.asRequest(of: Row.self).order(Column("id")).fetchOne(db))
            #expect(row.count == 5)
            #expect(row.scopes["author"]?.count == 1)
            #expect(row.unadapted.count == 6)
            // Excluding no column of the table selects them all.
            #expect(try sql(Book.including(required: Book.author.select(.allColumns(excluding: ["unknown"]))), db) == #"""
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """#)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func ofTwoIncludedAssociationsOfOneKeyTheLastSelectionWins(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let names = Book.author.select(Author.Columns.name)
            #expect(try sql(Book.including(required: names).including(required: Book.author), db).hasPrefix(#"SELECT "book".*, "author".* FROM"#))
            #expect(try sql(Book.including(required: Book.author).including(required: names), db).hasPrefix(#"SELECT "book".*, "author"."name" FROM"#))
            // A joined association selects nothing: the included one decides.
            #expect(try sql(Book.including(required: names).joining(required: Book.author), db).hasPrefix(#"SELECT "book".*, "author"."name" FROM"#))
            #expect(try sql(Book.joining(required: Book.author).including(required: names), db).hasPrefix(#"SELECT "book".*, "author"."name" FROM"#))
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func tablesWithoutRecordTypesHaveAssociations(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let bookTable = Table("book")
            let bookAuthor = bookTable.belongsTo(Table("author"))
            #expect(try bookTable.joining(required: bookAuthor).fetchCount(db) == 2)
            let authorBooks = Table("author").hasMany(bookTable)
            let request = Table("author").joining(required: authorBooks.filter(Column("year") < 2000))
            #expect(try request.fetchAll(db).map { $0["name"] as String } == ["Alice"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aggregatesOfAnAssociationAreGroupedByTheOriginPrimaryKey(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author.annotated(with: Author.books.count).order(Column("id"))
            #expect(try sql(request, db) == #"""
                SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount" FROM "author" \#
                LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id" ORDER BY "author"."id"
                """#)
            let rows = try request.asRequest(of: Row.self).fetchAll(db)
            #expect(rows.map { $0["bookCount"] as Int } == [2, 0])

            let both = Author.annotated(with: Author.books.count, Author.books.max(Column("year"))).order(Column("id"))
            #expect(try sql(both, db) == #"""
                SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount", MAX("book"."year") AS "maxBookYear" \#
                FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id" ORDER BY "author"."id"
                """#)
            let maxima = try both.asRequest(of: Row.self).fetchAll(db).map { $0["maxBookYear"] as Int? }
            #expect(maxima == [2005, nil])
        }
    }

    struct AuthorInfo: Decodable, FetchableRecord, Equatable {
        var author: Author
        var bookCount: Int
    }

    @Test(arguments: DatabaseKind.allCases)
    func anAnnotatedRecordDecodesTheRecordFromTheWholeRow(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        let infos = try fixture.writer.read { (db) throws in
            // The row has no scope: `author` is every column but the aggregate.
            try Author.annotated(with: Author.books.count).order(Column("id")).asRequest(of: AuthorInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.bookCount) == [2, 0])
        #expect(infos.map(\.author.id) == [1, 2])
    }

    struct Nothing: Decodable {}

    struct TwoRecordsFromOneRow: Decodable, FetchableRecord {
        var first: Nothing
        var second: Nothing
    }

    struct OneRecordAndOptionals: Decodable, FetchableRecord {
        var first: Nothing
        var second: Nothing?
    }

    @Test func onlyOnePropertyIsDecodedFromTheWholeRow() throws {
        let row: Row = ["a": 1]
        // An optional that is neither a column nor a scope is nil.
        #expect(try OneRecordAndOptionals(row: row).second == nil)
        #expect {
            try TwoRecordsFromOneRow(row: row)
        } throws: { error in
            guard case DecodingError.keyNotFound(_, let context) = error else { return false }
            return context.debugDescription == "No such key: first or second"
        }
        // Each record decoded from the row begins its own count.
        _ = try OneRecordAndOptionals(row: row)
        _ = try OneRecordAndOptionals(row: row)
    }

    @Test(arguments: DatabaseKind.allCases)
    func havingAnAggregateFiltersTheGroups(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let withoutBooks = Author.having(Author.books.isEmpty)
            #expect(try sql(withoutBooks, db) == #"""
                SELECT "author".* FROM "author" LEFT JOIN "book" ON "book"."authorId" = "author"."id" \#
                GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") = 0
                """#)
            #expect(try withoutBooks.fetchAll(db).map(\.name) == ["Bob"])
            #expect(try Author.having(!Author.books.isEmpty).fetchAll(db).map(\.name) == ["Alice"])
            #expect(try Author.having(Author.books.count > 1).fetchAll(db).map(\.name) == ["Alice"])
            let prolific = Author.having(Author.books.count == 2 && Author.books.min(Column("year")) < 2000)
            #expect(try prolific.fetchAll(db).map(\.name) == ["Alice"])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func requestForAnAssociationFetchesTheAssociatedRecords(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let bee = try #require(try Book.fetchOne(db, key: 2))
            #expect(try bee.request(for: Book.author).fetchOne(db) == Author(id: 1, name: "Alice"))
            #expect(try bee.request(for: Book.translator).fetchOne(db)?.name == "Bob")
            let cat = try #require(try Book.fetchOne(db, key: 3))
            #expect(try cat.request(for: Book.author).fetchOne(db) == nil)
            let alice = Author(id: 1, name: "Alice")
            #expect(try sql(alice.request(for: Author.books), db) == #"SELECT * FROM "book" WHERE "authorId" = ?"#)
            #expect(try alice.request(for: Author.books).order(Column("title")).fetchAll(db).map(\.id) == [1, 2])
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anAssociationWithoutForeignKeyFailsWithAClearError(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        struct Orphan: TableRecord {
            static let author = belongsTo(Author.self)
        }
        try fixture.writer.write { (db) throws in
            try db.create(table: "orphan") { t in t.column("authorId", .integer) }
        }
        try fixture.writer.read { (db) throws in
            let error = #expect(throws: DatabaseError.self) {
                try Orphan.joining(required: Orphan.author).fetchCount(db)
            }
            #expect(error?.message == "could not infer a foreign key from orphan to author: give a ForeignKey in the definition of the association")
        }
    }
}

extension AssociationTests {
    struct BookWithAuthorName: Decodable, FetchableRecord, Equatable {
        var title: String
        var authorName: String?
    }

    @Test(arguments: DatabaseKind.allCases)
    func annotatedWithAnAssociationAppendsItsColumnsToTheRowWithoutAScope(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let optional = Book
                .annotated(withOptional: Book.author.select(Author.Columns.name.forKey("authorName")))
                .order(Column("id"))
            #expect(try sql(optional, db) == #"""
                SELECT "book".*, "author"."name" AS "authorName" FROM "book" \#
                LEFT JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id"
                """#)
            let rows = try Row.fetchAll(db, optional)
            #expect(rows.map { $0.scopes.names.isEmpty } == [true, true, true])
            #expect(rows[2] == ["id": 3, "authorId": nil, "translatorId": nil, "title": "Cat", "year": 2010, "authorName": nil])
            #expect(try BookWithAuthorName.fetchAll(db, optional) == [
                BookWithAuthorName(title: "Ant", authorName: "Alice"),
                BookWithAuthorName(title: "Bee", authorName: "Alice"),
                BookWithAuthorName(title: "Cat", authorName: nil),
            ])

            let required = Book.annotated(withRequired: Book.author).order(Column("id"))
            #expect(try sql(required, db) == #"""
                SELECT "book".*, "author".* FROM "book" \#
                JOIN "author" ON "author"."id" = "book"."authorId" ORDER BY "book"."id"
                """#)
            let requiredRows = try Row.fetchAll(db, required)
            #expect(requiredRows.count == 2)
            #expect(requiredRows[0] == ["id": 1, "authorId": 1, "translatorId": nil, "title": "Ant", "year": 1999, "id": 1, "name": "Alice"])
            #expect(requiredRows[0].scopes.names.isEmpty)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func twoAssociationsOfOneKeyThatJoinDifferentlyAreAnError(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            // Another foreign key under the key "author".
            let otherForeignKey = Book.including(required: Book.author).including(optional: Book.translator.forKey("author"))
            let error = try #require(throws: DatabaseError.self) { try Row.fetchAll(db, otherForeignKey) }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message?.contains(#"The association key "author" is ambiguous"#) == true)
            // A joined association and a prefetched one.
            let joinedAndPrefetched = Author.including(required: Author.books.forKey("x")).including(all: Author.books.forKey("x"))
            #expect(throws: DatabaseError.self) { try Row.fetchAll(db, joinedAndPrefetched) }
            // The same association twice is one join.
            #expect(try Row.fetchAll(db, Book.including(required: Book.author).joining(optional: Book.author)).count == 2)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func ifNullAndCastKeepTheKeyOfTheirAggregate(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Author
                .annotated(with: Author.books.max(Column("year")) ?? 0, cast(Author.books.count, as: .real))
                .order(Column("id"))
            let rows = try request.asRequest(of: Row.self).fetchAll(db)
            #expect(rows.map { $0["maxBookYear"] as Int } == [2005, 0])
            #expect(rows.map { $0["bookCount"] as Double } == [2, 0])
            // Other operators make another value, which has no key.
            #expect(try !sql(Author.annotated(with: Author.books.count + 1), db).contains(#"AS "bookCount""#))
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func reversedReversesTheOrderOfTheJoinedTablesToo(_ kind: DatabaseKind) throws {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            let request = Book
                .joining(required: Book.author.order(Column("name"), Column("id").desc))
                .order(Column("year"))
            #expect(try sql(request.reversed(), db).hasSuffix(#"""
                ORDER BY "book"."year" DESC, "author"."name" DESC, "author"."id" ASC
                """#))
            // An association reversed on its own, inside a reversed request.
            let inner = Book.joining(required: Book.author.order(Column("name")).reversed()).order(Column("year"))
            #expect(try sql(inner, db).hasSuffix(#"ORDER BY "book"."year", "author"."name" DESC"#))
            #expect(try sql(inner.reversed(), db).hasSuffix(#"ORDER BY "book"."year" DESC, "author"."name""#))
            #expect(try request.reversed().fetchAll(db).map(\.title) == ["Bee", "Ant"])
        }
    }
}
