import CipherDB
import Foundation
import Testing

@Suite struct StringFunctionTests {
    @Test(arguments: DatabaseKind.allCases)
    func builtInStringFunctionsAreRegisteredOnEveryConnection(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        let functions: [(DatabaseFunction, String)] = [
            (.capitalize, "Jérôme Élan"),
            (.lowercase, "jérôme élan"),
            (.uppercase, "JÉRÔME ÉLAN"),
            (.localizedCapitalize, "Jérôme Élan"),
            (.localizedLowercase, "jérôme élan"),
            (.localizedUppercase, "JÉRÔME ÉLAN"),
        ]
        try fixture.writer.read { (db) throws in
            for (function, expected) in functions {
                #expect(try String.fetchOne(db, sql: "SELECT \(function.name)('jérÔME éLAN')") == expected, "\(function.name)")
                #expect(try DatabaseValue.fetchOne(db, sql: "SELECT \(function.name)(12)") == .null, "\(function.name)")
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func caseFunctionsOfTheQueryInterfaceFoldEveryLetter(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('élodie', 1), ('ÉLODIE', 2), ('Bob', 3)")
        }
        let name = Column("name")
        try fixture.writer.read { (db) throws in
            let lowercased = Table("player").filter(name.lowercased == "élodie").order(Column("score"))
            #expect(try lowercased.makePreparedRequest(db).statement.sql
                    == #"SELECT * FROM "player" WHERE swiftLowercaseString("name") = ? ORDER BY "score""#)
            #expect(try Int.fetchAll(db, lowercased.select(Column("score"))) == [1, 2])
            // SQLite's LOWER folds ASCII letters only: "ÉLODIE" would not match.
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player WHERE LOWER(name) = 'élodie'") == [1])
            #expect(try String.fetchAll(db, Table("player").select(name.uppercased).order(Column("score")))
                    == ["ÉLODIE", "ÉLODIE", "BOB"])
            #expect(try String.fetchAll(db, Table("player").select(name.capitalized).order(Column("score")))
                    == ["Élodie", "Élodie", "Bob"])
            #expect(try String.fetchAll(db, Table("player").select(name.localizedLowercased).order(Column("score")))
                    == ["élodie", "élodie", "bob"])
        }
    }

    @Test func customFunctionsAreCallableFromTheQueryInterface() throws {
        let dbQueue = try DatabaseQueue()
        let square = DatabaseFunction("square", argumentCount: 1, pure: true) { values in
            Int.fromDatabaseValue(values[0]).map { $0 * $0 }
        }
        try dbQueue.write { (db) throws in
            db.add(function: square)
            try db.execute(sql: "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (2), (3)")
            let request = Table("t").select(square(Column("x")) + 1).order(Column("x"))
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT square("x") + ? FROM "t" ORDER BY "x""#)
            #expect(try Int.fetchAll(db, request) == [5, 10])
        }
    }
}
