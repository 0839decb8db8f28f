import CipherDB
import Foundation
import Testing

@Suite struct CollationTests {
    static let names = ["élodie", "Zoe", "arthur", "Émile", "bob", "file10", "file2", "File1", "zoé", "ARTHUR", "Ångström"]

    static let collations: [(DatabaseCollation, @Sendable (String, String) -> ComparisonResult)] = [
        (.unicodeCompare, { $0 < $1 ? .orderedAscending : ($0 == $1 ? .orderedSame : .orderedDescending) }),
        (.caseInsensitiveCompare, { $0.caseInsensitiveCompare($1) }),
        (.localizedCaseInsensitiveCompare, { $0.localizedCaseInsensitiveCompare($1) }),
        (.localizedCompare, { $0.localizedCompare($1) }),
        (.localizedStandardCompare, { $0.localizedStandardCompare($1) }),
    ]

    @Test(arguments: DatabaseKind.allCases)
    func builtInCollationsOrderAsFoundationDoes(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT)")
            for name in Self.names {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [name])
            }
        }
        for (collation, compare) in Self.collations {
            let sorted = try fixture.writer.read { (db) throws in
                try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name COLLATE \(collation.name), rowid")
            }
            // Stable expectation: ties keep insertion order, as `, rowid` does.
            let expected = Self.names.enumerated().sorted { lhs, rhs in
                switch compare(lhs.element, rhs.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: return lhs.offset < rhs.offset
                }
            }.map(\.element)
            #expect(sorted == expected, "\(collation.name)")
        }
    }

    @Test func customCollationsCanBeAdded() throws {
        let dbQueue = try DatabaseQueue()
        let byLength = DatabaseCollation("byLength") { lhs, rhs in
            lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
        }
        try dbQueue.read { (db) throws in
            db.add(collation: byLength)
            let sorted = try String.fetchAll(db, sql: "SELECT 'ccc' AS s UNION ALL SELECT 'a' UNION ALL SELECT 'bb' ORDER BY s COLLATE byLength")
            #expect(sorted == ["a", "bb", "ccc"])
        }
    }

    @Test func builtInCollationsHaveGRDBsNames() {
        #expect(Self.collations.map(\.0.name) == [
            "swiftCompare", "swiftCaseInsensitiveCompare", "swiftLocalizedCaseInsensitiveCompare",
            "swiftLocalizedCompare", "swiftLocalizedStandardCompare",
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func schemasMadeWithGRDBOrWithTheFormerNamesWork(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            // A table made by GRDB, and one made by CipherDB before it took
            // GRDB's names: both must still be written and sorted.
            try db.execute(sql: "CREATE TABLE grdb (name TEXT COLLATE swiftLocalizedCaseInsensitiveCompare UNIQUE)")
            try db.execute(sql: "CREATE TABLE former (name TEXT COLLATE localizedCaseInsensitiveCompare UNIQUE)")
            for table in ["grdb", "former"] {
                try db.execute(sql: "INSERT INTO \(table) VALUES ('b'), ('A')")
                #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO \(table) VALUES ('a')") }
                #expect(try String.fetchAll(db, sql: "SELECT name FROM \(table) ORDER BY name") == ["A", "b"])
            }
        }
    }
}
