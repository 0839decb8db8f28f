import CipherDB

/// The full-text search example of Docs/Records.md, as written there
/// between the markers (`FullTextSearchTests` compares the two and runs
/// this): the titles of the books that match what a user typed.
func fullTextSearchExample(path: String, passphrase: String) throws -> [String] {
    // example begins
    struct Book: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var title: String
        var body: String
    }

    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.usePassphrase(passphrase) }
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
    try dbQueue.write { db in
        try db.create(table: "book") { t in
            t.primaryKey("id", .integer)
            t.column("title", .text).notNull()
            t.column("body", .text).notNull()
        }
        // The books' full-text index, kept in sync with them by triggers.
        try db.create(virtualTable: "book_ft", using: FTS4()) { t in
            t.synchronize(withTable: "book")
            t.tokenizer = .unicode61()
            t.column("title")
            t.column("body")
        }
        try Book(id: 1, title: "Moby Dick", body: "Call me Ishmael.").insert(db)
        try Book(id: 2, title: "Red Mars", body: "History is not evolution.").insert(db)
    }

    let titles = try dbQueue.read { db in
        // What a user typed: nil for no word, which matches no book.
        let pattern = FTS3Pattern(matchingAllPrefixesIn: "ishm")
        let matches = Table("book_ft").select(Column.rowID).matching(pattern)
        return try String.fetchAll(db, Book.select(Column("title")).filter(matches.contains(Column("id"))))
    }
    // titles == ["Moby Dick"]
    // example ends
    return titles
}
