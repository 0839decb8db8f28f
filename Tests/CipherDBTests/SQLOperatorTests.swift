import CipherDB
import Testing

/// Each operator of the query interface, with a string, a number, a Bool,
/// an optional and a column on either side: the SQL is GRDB's, and the
/// rows are the ones SQLite selects with it.
@Suite struct SQLOperatorTests {
    struct Person: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String?
        var age: Int?
        var isMember: Bool
    }

    static let id = Column("id")
    static let name = Column("name")
    static let age = Column("age")
    static let isMember = Column("isMember")

    /// People 1: Arthur 42 member, 2: Barbara 36, 3: (no name) 17 member,
    /// 4: Craig (no age).
    func makeDatabase(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.create(table: "person") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("age", .integer)
                t.column("isMember", .boolean).notNull()
            }
            try Person(id: 1, name: "Arthur", age: 42, isMember: true).insert(db)
            try Person(id: 2, name: "Barbara", age: 36, isMember: false).insert(db)
            try Person(id: 3, name: nil, age: 17, isMember: true).insert(db)
            try Person(id: 4, name: "Craig", age: nil, isMember: false).insert(db)
        }
        return fixture
    }

    /// Checks the SQL, the arguments and the selected ids of a filter.
    func check(
        _ kind: DatabaseKind,
        _ cases: [(SQLExpression, String, StatementArguments, [Int64])],
        sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let fixture = try makeDatabase(kind)
        try fixture.writer.read { (db) throws in
            for (expression, sql, arguments, ids) in cases {
                let request = Person.filter(expression).order(Self.id)
                let statement = try request.makePreparedRequest(db).statement
                #expect(statement.sql == #"SELECT * FROM "person" WHERE "# + sql + #" ORDER BY "id""#,
                        sourceLocation: sourceLocation)
                #expect(statement.arguments == arguments, sourceLocation: sourceLocation)
                #expect(try request.fetchAll(db).map(\.id) == ids, "\(sql)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func equal(_ kind: DatabaseKind) throws {
        let missingName: String? = nil
        let someName: String? = "Arthur"
        try check(kind, [
            (Self.name == "Arthur", #""name" = ?"#, ["Arthur"], [1]),
            ("Arthur" == Self.name, #"? = "name""#, ["Arthur"], [1]),
            (Self.age == 36, #""age" = ?"#, [36], [2]),
            (36 == Self.age, #"? = "age""#, [36], [2]),
            (Self.isMember == true, #""isMember" = ?"#, [true], [1, 3]),
            (false == Self.isMember, #""isMember" = ?"#, [false], [2, 4]),
            (Self.name == missingName, #""name" IS NULL"#, [], [3]),
            (missingName == Self.name, #""name" IS NULL"#, [], [3]),
            (Self.name == someName, #""name" = ?"#, ["Arthur"], [1]),
            (Self.name == nil, #""name" IS NULL"#, [], [3]),
            (Self.age == Self.id, #""age" = "id""#, [], []),
            (Self.name == Self.name, #""name" = "name""#, [], [1, 2, 4]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func notEqual(_ kind: DatabaseKind) throws {
        let missingAge: Int? = nil
        try check(kind, [
            (Self.name != "Arthur", #""name" <> ?"#, ["Arthur"], [2, 4]),
            ("Arthur" != Self.name, #"? <> "name""#, ["Arthur"], [2, 4]),
            (Self.age != 36, #""age" <> ?"#, [36], [1, 3]),
            (Self.isMember != true, #""isMember" <> ?"#, [true], [2, 4]),
            (true != Self.isMember, #""isMember" <> ?"#, [true], [2, 4]),
            (false != Self.isMember, #""isMember" <> ?"#, [false], [1, 3]),
            // The negation of `age = 1`, not `age = 0`: every age but 1.
            (Self.age != true, #""age" <> ?"#, [true], [1, 2, 3]),
            (Self.age != missingAge, #""age" IS NOT NULL"#, [], [1, 2, 3]),
            (missingAge != Self.age, #""age" IS NOT NULL"#, [], [1, 2, 3]),
            (Self.age != Self.id, #""age" <> "id""#, [], [1, 2, 3]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func identical(_ kind: DatabaseKind) throws {
        let missingName: String? = nil
        try check(kind, [
            (Self.name === "Arthur", #""name" IS ?"#, ["Arthur"], [1]),
            ("Arthur" === Self.name, #"? IS "name""#, ["Arthur"], [1]),
            (Self.name === missingName, #""name" IS NULL"#, [], [3]),
            (missingName === Self.name, #""name" IS NULL"#, [], [3]),
            (Self.age === 17, #""age" IS ?"#, [17], [3]),
            (Self.isMember === true, #""isMember" IS ?"#, [true], [1, 3]),
            (Self.age === Self.age, #""age" IS "age""#, [], [1, 2, 3, 4]),
            (Self.name !== missingName, #""name" IS NOT NULL"#, [], [1, 2, 4]),
            (Self.name !== "Arthur", #""name" IS NOT ?"#, ["Arthur"], [2, 3, 4]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func lessThan(_ kind: DatabaseKind) throws {
        let limit: Int? = 40
        try check(kind, [
            (Self.age < 40, #""age" < ?"#, [40], [2, 3]),
            (40 < Self.age, #"? < "age""#, [40], [1]),
            (Self.age < limit, #""age" < ?"#, [40], [2, 3]),
            (Self.name < "B", #""name" < ?"#, ["B"], [1]),
            (Self.isMember < true, #""isMember" < ?"#, [true], [2, 4]),
            (Self.id < Self.age, #""id" < "age""#, [], [1, 2, 3]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func and(_ kind: DatabaseKind) throws {
        try check(kind, [
            (Self.age > 20 && Self.isMember, #"("age" > ?) AND "isMember""#, [20], [1]),
            (Self.isMember && true, #""isMember" AND ?"#, [true], [1, 3]),
            (false && Self.isMember, #"? AND "isMember""#, [false], []),
            (Self.name != nil && Self.age < 40 && Self.isMember == false,
             #"("name" IS NOT NULL) AND ("age" < ?) AND ("isMember" = ?)"#, [40, false], [2]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func or(_ kind: DatabaseKind) throws {
        try check(kind, [
            (Self.age < 20 || Self.name == "Craig", #"("age" < ?) OR ("name" = ?)"#, [20, "Craig"], [3, 4]),
            (false || Self.isMember, #"? OR "isMember""#, [false], [1, 3]),
            (Self.isMember || Self.age == nil, #""isMember" OR ("age" IS NULL)"#, [], [1, 3, 4]),
            ((Self.age > 40 || Self.age < 20) && Self.isMember,
             #"(("age" > ?) OR ("age" < ?)) AND "isMember""#, [40, 20], [1, 3]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func not(_ kind: DatabaseKind) throws {
        try check(kind, [
            (!Self.isMember, #"NOT "isMember""#, [], [2, 4]),
            (!(!Self.isMember), #"NOT (NOT "isMember")"#, [], [1, 3]),
            (!(Self.age == 42), #""age" <> ?"#, [42], [2, 3]),
            (!(Self.name == nil), #""name" IS NOT NULL"#, [], [1, 2, 4]),
            (!(Self.age > 20), #"NOT ("age" > ?)"#, [20], [3]),
            (!Self.name.like("A%"), #""name" NOT LIKE ?"#, ["A%"], [2, 4]),
            (![1, 2].contains(Self.id), #""id" NOT IN (?, ?)"#, [1, 2], [3, 4]),
            (!(18...40).contains(Self.age), #""age" NOT BETWEEN ? AND ?"#, [18, 40], [1, 3]),
            (!(Self.isMember && Self.age > 20), #"NOT ("isMember" AND ("age" > ?))"#, [20], [2, 3, 4]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func contains(_ kind: DatabaseKind) throws {
        let names: [String?] = ["Arthur", nil]
        try check(kind, [
            ([1, 2].contains(Self.id), #""id" IN (?, ?)"#, [1, 2], [1, 2]),
            ([2].contains(Self.id), #""id" = ?"#, [2], [2]),
            ([Int]().contains(Self.id), "?", [false], []),
            (["Arthur", "Craig"].contains(Self.name), #""name" IN (?, ?)"#, ["Arthur", "Craig"], [1, 4]),
            (names.contains(Self.name), #""name" IN (?, NULL)"#, ["Arthur"], [1]),
            ([true].contains(Self.isMember), #""isMember" = ?"#, [true], [1, 3]),
            ([Self.id].contains(Self.id), #""id" = "id""#, [], [1, 2, 3, 4]),
            ((18...40).contains(Self.age), #""age" BETWEEN ? AND ?"#, [18, 40], [2]),
            ((17..<40).contains(Self.age), #"("age" >= ?) AND ("age" < ?)"#, [17, 40], [2, 3]),
            (["arthur", "craig"].contains(Self.name.collating(.nocase)),
             #"("name" COLLATE NOCASE) IN (?, ?)"#, ["arthur", "craig"], [1, 4]),
            // The collation of an operand applies to the whole comparison.
            (["arthur"].contains(Self.name.collating(.nocase)), #""name" = ? COLLATE NOCASE"#, ["arthur"], [1]),
            (("b"..<"c").contains(Self.name.collating(.nocase)),
             #"("name" >= ? COLLATE NOCASE) AND ("name" < ? COLLATE NOCASE)"#, ["b", "c"], [2]),
            (Self.name.collating(.nocase) > "b", #""name" > ? COLLATE NOCASE"#, ["b"], [2, 4]),
        ])
    }

    @Test(arguments: DatabaseKind.allCases)
    func like(_ kind: DatabaseKind) throws {
        let pattern: String? = "%r%"
        try check(kind, [
            (Self.name.like("%a%"), #""name" LIKE ?"#, ["%a%"], [1, 2, 4]),
            (Self.name.like(pattern), #""name" LIKE ?"#, ["%r%"], [1, 2, 4]),
            (Self.name.like("b%") == false, #"("name" LIKE ?) = ?"#, ["b%", false], [1, 4]),
            (Self.name.like("b%") == true, #"("name" LIKE ?) = ?"#, ["b%", true], [2]),
            (Self.name.like(Self.name), #""name" LIKE "name""#, [], [1, 2, 4]),
            (Self.name.like("%\\_%", escape: "\\"), #""name" LIKE ? ESCAPE ?"#, ["%\\_%", "\\"], []),
        ])
    }
}
