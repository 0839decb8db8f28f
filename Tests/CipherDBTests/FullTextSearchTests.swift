import CipherDB
import Foundation
import Testing
import TestSupport

/// Full-text search with FTS3 and FTS4 on encrypted databases: the SQL
/// of GRDB's table builder, tables kept in sync with their content,
/// patterns checked when made, `matching` in the query interface.
@Suite struct FullTextSearchTests {
    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "book"
        var id: Int64
        var title: String
        var body: String
    }

    /// `book(id, title)`, unless not `contentTable`, and `book_ft`, the
    /// FTS4 index of its titles kept in sync with it.
    func createSynchronizedBookTitles(_ db: Database, contentTable: Bool = true) throws {
        if contentTable {
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text)
            }
        }
        try db.create(virtualTable: "book_ft", using: FTS4()) { t in
            t.synchronize(withTable: "book")
            t.column("title")
        }
    }

    /// The SQL that created `table`, as SQLite keeps it.
    func creationSQL(_ db: Database, _ table: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])
    }

    @Test func theTableBuilderWritesGRDBsSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            try db.create(virtualTable: "plain", using: FTS3())
            #expect(try creationSQL(db, "plain") == #"CREATE VIRTUAL TABLE "plain" USING fts3"#)
            try db.create(virtualTable: "books", options: .ifNotExists, using: FTS4()) { t in
                t.tokenizer = .unicode61(diacritics: .keep, separators: ["-", "_"], tokenCharacters: ["#"])
                t.column("author").notIndexed()
                t.column("title")
                t.column("lid").asLanguageId()
                t.matchinfo = "fts3"
                t.prefixes = [4, 2]
            }
            #expect(try creationSQL(db, "books") == #"""
                CREATE VIRTUAL TABLE "books" USING fts4(author, notindexed=author, title, languageid="lid", \#
                tokenize=unicode61 "remove_diacritics=0" "separators=-_" "tokenchars=#", matchinfo="fts3", prefix="2,4")
                """#)
            try db.create(virtualTable: "notes", using: FTS3()) { t in
                t.tokenizer = .porter
                t.column("text")
            }
            #expect(try creationSQL(db, "notes") == #"CREATE VIRTUAL TABLE "notes" USING fts3(text, tokenize=porter)"#)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aSynchronizedTableFollowsItsContentTableOnAnEncryptedDatabase(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        func count(_ pattern: String) throws -> Int {
            try fixture.writer.read { (db) throws in
                try Book.matching(FTS3Pattern(rawPattern: pattern)).fetchCount(db)
            }
        }
        try fixture.writer.write { (db) throws in
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text).notNull()
                t.column("body", .text).notNull()
            }
            try Book(id: 1, title: "Moby Dick", body: "Call me Ishmael.").insert(db)
            try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
                t.column("body")
            }
            #expect(try creationSQL(db, "book_ft") == #"CREATE VIRTUAL TABLE "book_ft" USING fts4(title, body, content="book")"#)
            #expect(try creationSQL(db, "__book_ft_bu") == """
                CREATE TRIGGER "__book_ft_bu" BEFORE UPDATE ON "book" BEGIN
                    DELETE FROM "book_ft" WHERE docid=old."id";
                END
                """)
        }
        func idsMatching(_ pattern: String) throws -> [Int64] {
            try fixture.writer.read { (db) throws in
                let pattern = try FTS3Pattern(rawPattern: pattern)
                return try Int64.fetchAll(db, Table("book_ft").select(Column.rowID).matching(pattern).order(Column.rowID))
            }
        }
        #expect(try idsMatching("ishmael") == [1])
        try fixture.writer.write { (db) throws in
            try Book(id: 2, title: "Red Mars", body: "History is not evolution.").insert(db)
            try db.execute(sql: "UPDATE book SET body = 'Call me Queequeg.' WHERE id = 1")
        }
        #expect(try idsMatching("ishmael").isEmpty)
        #expect(try idsMatching("queequeg OR history") == [1, 2])
        try fixture.writer.write { (db) throws in _ = try Book.deleteOne(db, key: 1) }
        #expect(try idsMatching("queequeg OR history") == [2])
        // The index is encrypted with the rest of the file.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
        #expect(bytes.range(of: Data("evolution".utf8)) == nil)
    }

    @Test func matchingFiltersByTheTableAsItIsNamedInTheQuery() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            try db.create(virtualTable: "book", using: FTS4()) { t in
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO book (title, body) VALUES ('Moby Dick', 'Call me Ishmael.'), ('Red Mars', 'History')")
            let pattern = try #require(FTS3Pattern(matchingAllTokensIn: "moby"))
            let request = Table("book").all().matching(pattern)
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT * FROM "book" WHERE "book" MATCH ?"#)
            #expect(try String.fetchAll(db, request.select(Column("title"))) == ["Moby Dick"])
            let aliased = try Table("book").aliased(TableAlias(name: "b")).matching(pattern).makePreparedRequest(db).statement.sql
            #expect(aliased == #"SELECT "b".* FROM "book" "b" WHERE "b" MATCH ?"#)
            #expect(try Table("book").filter(Column("body").match(pattern)).fetchCount(db) == 0)
            #expect(try Table("book").filter(Column("title").match(pattern)).fetchCount(db) == 1)
            // No pattern, no row: what a search of no token finds.
            #expect(try Table("book").all().matching(nil).fetchCount(db) == 0)
            #expect(try Table("book").filter(Column("title").match(nil)).fetchCount(db) == 0)
        }
    }

    @Test func aPatternIsCheckedWhenMade() throws {
        #expect(throws: DatabaseError.self) { try FTS3Pattern(rawPattern: "\"moby") }
        #expect(try FTS3Pattern(rawPattern: "years -months").rawPattern == "years -months")
        #expect(FTS3Pattern(matchingAnyTokenIn: "Moby, Dick!")?.rawPattern == "moby OR dick")
        #expect(FTS3Pattern(matchingAllTokensIn: "Moby Dick")?.rawPattern == "moby dick")
        #expect(FTS3Pattern(matchingAllPrefixesIn: "mob dic")?.rawPattern == "mob* dic*")
        #expect(FTS3Pattern(matchingPhrase: "\"Moby\" (Dick)")?.rawPattern == "\"moby dick\"")
        for noToken in ["", " ", "*", "()", "\"", "?!"] {
            #expect(FTS3Pattern(matchingAnyTokenIn: noToken) == nil, "\(noToken)")
            #expect(FTS3Pattern(matchingPhrase: noToken) == nil, "\(noToken)")
        }
        #expect(FTS3Pattern.fromDatabaseValue("\"moby".databaseValue) == nil)
        #expect(FTS3Pattern.fromDatabaseValue("moby".databaseValue)?.rawPattern == "moby")
    }

    /// Debian's SQLCipher is built without `SQLITE_ENABLE_FTS3_PARENTHESIS`:
    /// patterns have SQLite's standard query syntax, where `AND`, `NOT` and
    /// parentheses are no operators (GRDB's SQLite has the enhanced one).
    @Test func patternsHaveTheStandardQuerySyntax() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            try db.create(virtualTable: "book", using: FTS4()) { t in t.column("body") }
            try db.execute(sql: "INSERT INTO book (body) VALUES ('years and months'), ('years only')")
            func count(_ pattern: String) throws -> Int {
                try Table("book").all().matching(FTS3Pattern(rawPattern: pattern)).fetchCount(db)
            }
            #expect(try count("years -months") == 1)
            #expect(try count("years OR nothing") == 2)
            #expect(try count("years months") == 1)
            // Tokens: "and" is in the first row only, "not" in none.
            #expect(try count("years AND months") == 1)
            #expect(try count("years NOT months") == 0)
            #expect(try count("(years)") == 2)
        }
    }

    @Test func tokenizersSplitTextAsSQLiteDoes() throws {
        // `simple` folds ASCII letters only, and keeps other characters.
        #expect(try FTS3.tokenize("Élan vital, SQLite!") == ["Élan", "vital", "sqlite"])
        #expect(try FTS3.tokenize("running dogs", withTokenizer: .porter) == ["run", "dog"])
        #expect(try FTS3.tokenize("Élan vital", withTokenizer: .unicode61()) == ["elan", "vital"])
        #expect(try FTS3.tokenize("Élan vital", withTokenizer: .unicode61(diacritics: .keep)) == ["élan", "vital"])
        #expect(try FTS3.tokenize("a-b c#d", withTokenizer: .unicode61(separators: ["#"], tokenCharacters: ["-"])) == ["a-b", "c", "d"])
        // SQLite 3.27's remove_diacritics=2: refused by SQLCipher 3.4.1, loudly.
        #expect(throws: DatabaseError.self) { try FTS3.tokenize("Élan", withTokenizer: .unicode61(diacritics: .remove)) }
    }

    @Test func aTemporaryTableCannotBeSynchronized() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text)
            }
            let error = try #require(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", options: .temporary, using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            #expect(error.resultCode == .SQLITE_MISUSE)
            // Nothing is left of it: the savepoint is rolled back.
            #expect(try db.tableExists("book_ft") == false)
        }
    }

    @Test func droppingTheSynchronizationTriggersFreesTheContentTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            try createSynchronizedBookTitles(db)
            try db.drop(table: "book_ft")
            #expect(try db.tableExists("book_ft") == false)
            try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby Dick')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") == 0)
            // Created again, it indexes the rows written meanwhile.
            try createSynchronizedBookTitles(db, contentTable: false)
            #expect(try Table("book_ft").all().matching(FTS3Pattern(rawPattern: "moby")).fetchCount(db) == 1)
        }
    }

    /// FTS4 writes its shadow tables (`book_ft_content`…), not the table a
    /// statement names: an observation of the table hears of every change.
    @Test(arguments: DatabaseKind.allCases)
    func anObservationOfAFullTextTableSeesItsChanges(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try await fixture.writer.write { db in
            try createSynchronizedBookTitles(db)
            try db.create(virtualTable: "note", using: FTS4()) { t in t.column("text") }
        }
        let recorder = ValueRecorder<[Int]>()
        let observation = ValueObservation.tracking { db in
            [try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH 'moby'")!,
             try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note WHERE note MATCH 'call'")!]
        }
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues([0, 0]) }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby Dick')") }
        try await recorder.wait { $0.last == [1, 0] }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('Call me Ishmael')") }
        try await recorder.wait { $0.last == [1, 1] }
        cancellable.cancel()
        #expect(recorder.errors.isEmpty)
    }

    /// Docs/Records.md's example is ``fullTextSearchExample(path:passphrase:)``
    /// line for line, and finds the book on an encrypted database.
    @Test func theRecordsPagesExampleRunsAsWritten() throws {
        let page = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Records.md"), encoding: .utf8)
        let source = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Tests/CipherDBTests/FullTextSearchExample.swift"),
                                encoding: .utf8)
        let marker = "<!-- example: Tests/CipherDBTests/FullTextSearchExample.swift -->\n```swift\n"
        let start = try #require(page.range(of: marker)).upperBound
        let documented = String(page[start...]).components(separatedBy: "\n```\n")[0]
        let lines = source.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex(of: "    // example begins"))
        let end = try #require(lines.firstIndex(of: "    // example ends"))
        let example = lines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }.joined(separator: "\n")
        #expect(documented == example)
        let folder = try TemporaryFolder()
        let path = folder.path("books.sqlite")
        #expect(try fullTextSearchExample(path: path, passphrase: "secret") == ["Moby Dick"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(16) != Data("SQLite format 3\0".utf8))
    }
}
