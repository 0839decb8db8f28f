import CipherDB
import Testing

/// The singular and plural forms that name associations, as GRDB gives
/// them (English rules from Ruby on Rails).
@Suite struct InflectionsTests {
    static let pairs: [(singular: String, plural: String)] = [
        ("search", "searches"), ("category", "categories"), ("query", "queries"), ("ability", "abilities"),
        ("address", "addresses"), ("wife", "wives"), ("half", "halves"), ("safe", "saves"),
        ("analysis", "analyses"), ("basis", "bases"), ("diagnosis", "diagnoses"), ("datum", "data"),
        ("medium", "media"), ("perspective", "perspectives"), ("house", "houses"), ("mouse", "mice"),
        ("matrix", "matrices"), ("vertex", "vertices"), ("index", "indices"), ("ox", "oxen"),
        ("alias", "aliases"), ("status", "statuses"), ("octopus", "octopi"), ("virus", "viri"),
        ("axis", "axes"), ("crisis", "crises"), ("testis", "testes"), ("shoe", "shoes"), ("horse", "horses"),
        ("edge", "edges"), ("cow", "cows"), ("database", "databases"), ("tomato", "tomatoes"),
        ("movie", "movies"), ("news", "news"), ("person", "people"), ("child", "children"),
        ("woman", "women"), ("zombie", "zombies"), ("quiz", "quizzes"), ("bus", "buses"),
    ]

    @Test func englishWordsTakeTheirPluralAndSingularForms() {
        let inflections = Inflections.default
        for (singular, plural) in Self.pairs {
            #expect(inflections.pluralize(singular) == plural)
            #expect(inflections.singularize(plural) == singular)
            #expect(inflections.pluralize(plural) == plural)
            #expect(inflections.singularize(singular) == singular)
        }
    }

    @Test func onlyTheLastWordIsInflectedAndTrailingDigitsStay() {
        let inflections = Inflections.default
        #expect(inflections.pluralize("bookAuthor") == "bookAuthors")
        #expect(inflections.pluralize("book_category") == "book_categories")
        #expect(inflections.pluralize("best Person") == "best People")
        #expect(inflections.singularize("prefixedPeople") == "prefixedPerson")
        #expect(inflections.pluralize("book2") == "books2")
        #expect(inflections.pluralize("123") == "123")
        #expect(inflections.pluralize("") == "")
    }

    @Test func uncountableWordsStayAndAreNotGreedy() {
        var inflections = Inflections.default
        #expect(inflections.pluralize("sheep") == "sheep")
        #expect(inflections.pluralize("Black Sheep") == "Black Sheep")
        #expect(inflections.pluralize("Equipment") == "Equipment")
        inflections.uncountableWords(["ors"])
        #expect(inflections.pluralize("ors") == "ors")
        #expect(inflections.pluralize("sponsor") == "sponsors")
    }

    @Test func rulesAddedLaterTakePrecedence() {
        var inflections = Inflections()
        #expect(inflections.pluralize("player") == "player")
        inflections.plural("$", "s")
        inflections.plural("(ox)$", "$1en")
        #expect(inflections.pluralize("player") == "players")
        #expect(inflections.pluralize("box") == "boxen")
        inflections.irregularSuffix("cactus", "cacti")
        #expect(inflections.pluralize("Cactus") == "Cacti")
        #expect(inflections.singularize("cacti") == "cactus")
        inflections.irregularSuffix("cow", "kine")
        #expect(inflections.pluralize("Cow") == "Kine")
        #expect(inflections.singularize("kine") == "cow")
    }

    /// The only test that changes the default inflections, with a word no
    /// other test uses; it restores them.
    @Test func theDefaultInflectionsNameAssociations() throws {
        struct Zorb: TableRecord {}
        struct Owner: TableRecord {
            static let zorbs = hasMany(Zorb.self)
        }
        let original = Inflections.default
        defer { Inflections.default = original }
        Inflections.default.irregularSuffix("zorb", "zorbim")
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "owner") { $0.autoIncrementedPrimaryKey("id") }
            try db.create(table: "zorb") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("owner")
            }
            try db.execute(sql: "INSERT INTO owner DEFAULT VALUES; INSERT INTO zorb (ownerId) VALUES (1)")
            let row = try #require(try Row.fetchOne(db, Owner.including(all: Owner.zorbs)))
            #expect(row.prefetchedRows["zorbim"]?.count == 1)
        }
    }
}
