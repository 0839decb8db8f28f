import CipherDB
import Foundation
import TestSupport
import Testing

@Suite struct StatementTests {
    @Test(arguments: DatabaseKind.allCases)
    func executeRunsSeveralStatementsAndConsumesArgumentsInOrder(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.write { (db) throws in
            try db.execute(sql: """
                INSERT INTO player (name, score) VALUES (?, ?);
                INSERT INTO player (name, score) VALUES (:name, :score);
                -- a comment
                """, arguments: ["Arthur", 100, "Barbara", 200])
            try db.execute(sql: "UPDATE player SET score = :score WHERE name = :name", arguments: ["name": "Arthur", "score": 150])
        }
        let scores = try fixture.writer.read { (db) throws in
            try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY name")
        }
        #expect(scores == [150, 200])
    }

    /// A statement of no column gives no value, as in GRDB: the values of
    /// a list of statements of every kind are fetched one after the other.
    @Test func valuesOfStatementsWithoutColumnsAreNone() throws {
        let dbQueue = try DatabaseQueue()
        let values = try dbQueue.writeWithoutTransaction { (db) throws in
            let statements = try db.allStatements(sql: """
                CREATE TABLE t(a);
                INSERT INTO t VALUES (0);
                SELECT a FROM t ORDER BY a;
                INSERT INTO t VALUES (1);
                SELECT a FROM t ORDER BY a;
                """)
            return try Array(statements.map { try Int.fetchAll($0) })
        }
        #expect(values == [[], [], [0], [], [0, 1]])
    }

    @Test func namedArgumentsBindInAnyOrderAndCompareAsDictionaries() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, :b, :c)")
            try insert.execute(arguments: ["a": 1, "b": 2, "c": 3])
            try insert.execute(arguments: ["c": 6, "a": 4, "b": 5])
            try insert.execute(arguments: ["b": 8, "c": 9, "a": 7, "unused": 0])
            #expect(try Int.fetchAll(db, sql: "SELECT a * 100 + b * 10 + c FROM t") == [123, 456, 789])
        }
        let ordered: StatementArguments = ["a": 1, "b": 2]
        let reversed: StatementArguments = ["b": 2, "a": 1]
        #expect(ordered == reversed)
        #expect(ordered.hashValue == reversed.hashValue)
        #expect(ordered != ["a": 1, "b": 3])
        #expect(ordered != ["a": 1])
        // The last value of a name wins, as does the right side of &+; +
        // refuses a name defined on both sides (a programmer error, as in GRDB).
        #expect(["a": 1, "a": 2] as StatementArguments == ["a": 2])
        #expect(ordered + ["c": 3] == ["a": 1, "b": 2, "c": 3])
        #expect(ordered &+ ["a": 9, "c": 3] == ["a": 9, "b": 2, "c": 3])
        #expect([1, 2] &+ ["a": 9] + [3] == StatementArguments([1, 2, 3]) &+ ["a": 9])
        var appended = ordered
        let replaced = appended.append(contentsOf: ["b": 20])
        #expect(replaced == ["b": 2.databaseValue])
        #expect(appended == ["a": 1, "b": 20])
    }

    @Test func wrongArgumentCountIsAnErrorThatLeavesNothingInATransaction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a, b)") }
        let wrongArguments: [StatementArguments] = [[1], [1, 2, 3], ["a": 1]]
        for arguments in wrongArguments {
            #expect(throws: DatabaseError.self) {
                try dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO t VALUES (:a, ?)", arguments: arguments)
                }
            }
        }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func sqlLiteralBindsValuesAndExpandsArrays() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            let hostile = "x'); DROP TABLE t; --"
            try db.execute(literal: "INSERT INTO t (id, name) VALUES (\(1), \(hostile))")
            try db.execute(literal: "INSERT INTO t (id, name) VALUES (\(2), \("b")), (\(3), \(nil as String?))")
            let ids = [1, 3]
            let names = try String?.fetchAll(db, literal: "SELECT name FROM t WHERE id IN \(ids) ORDER BY id")
            #expect(names == [hostile, nil])
            let literal: SQL = "SELECT \(sql: "name") FROM t WHERE id = \(2)"
            let (sql, arguments) = try literal.build(db)
            #expect(sql == "SELECT name FROM t WHERE id = ?")
            #expect(arguments == [2])
            #expect(try db.tableExists("t"))
        }
    }

    @Test func sqlLiteralBindsDataAsOneBlob() throws {
        let dbQueue = try DatabaseQueue()
        let data = Data([1, 2, 3])
        let fetched = try dbQueue.read { db in try Data.fetchOne(db, literal: "SELECT \(data)") }
        #expect(fetched == data)
    }

    @Test func statementsFromLiteralsAreBoundToTheirValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            let insert = try db.makeStatement(literal: "INSERT INTO t (name) VALUES (\("a"))")
            #expect(insert.sql == "INSERT INTO t (name) VALUES (?)")
            #expect(insert.arguments == ["a"])
            try insert.execute()
            let select = try db.cachedStatement(literal: "SELECT name FROM t WHERE id = \(1)")
            #expect(try String.fetchOne(select) == "a")
            #expect(try db.cachedStatement(literal: "SELECT name FROM t WHERE id = \(2)") === select)
            // A literal without values leaves parameters to bind later.
            let unbound = try db.makeStatement(literal: "SELECT name FROM t WHERE id = ?")
            #expect(try String.fetchOne(unbound, arguments: [1]) == "a")
        }
    }

    @Test func allStatementsPreparesEachStatementAndBindsItsArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statements = try db.allStatements(sql: """
                INSERT INTO t VALUES (?);
                -- a comment, which is no statement
                ;
                INSERT INTO t VALUES (:b);
                """, arguments: [1, 2])
            var sql: [String] = []
            while let statement = try statements.next() {
                sql.append(statement.sql)
                try statement.execute()
            }
            // SQLite keeps a comment with the statement that follows it.
            #expect(sql.count == 2)
            #expect(sql.first == "INSERT INTO t VALUES (?)")
            #expect(sql.last?.hasSuffix("\nINSERT INTO t VALUES (:b)") == true)
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])

            let literal = try db.allStatements(literal: "SELECT \(3); SELECT \(4) + ?")
            #expect(try Int.fetchOne(literal.next()!) == 3)
            #expect(throws: DatabaseError.self) { try literal.next() } // `?` has no value

            let unbound = try db.allStatements(sql: "SELECT ?; SELECT ?")
            #expect(try Array(unbound.map { try Int.fetchOne($0, arguments: [5])! }) == [5, 5])
        }
    }

    @Test func leftOverArgumentsAreAnErrorOnceTheStatementsAreDone() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            let statements = try db.allStatements(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [1, 2, 3])
            try statements.next()!.execute()
            try statements.next()!.execute()
            do {
                _ = try statements.next()
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "wrong number of statement arguments: 3")
            }
        }
        // As in GRDB, execute(sql:) runs the statements, then fails: in a
        // transaction (`write`), nothing of them is left.
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { (db) throws in
                try db.execute(sql: "INSERT INTO t VALUES (?); INSERT INTO t VALUES (?)", arguments: [4, 5, 6])
            }
        }
        #expect(try dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") } == [1, 2])
    }

    @Test func databaseQuestionMarksBuildParameterLists() throws {
        #expect(databaseQuestionMarks(count: 0) == "")
        #expect(databaseQuestionMarks(count: 3) == "?,?,?")
        let dbQueue = try DatabaseQueue()
        let values: [Int] = [1, 2, 3]
        let sum = try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT \(databaseQuestionMarks(count: 3).replacingOccurrences(of: ",", with: " + "))",
                             arguments: StatementArguments(values))
        }
        #expect(sum == 6)
    }

    @Test func cursorsShowTheirStatementWithoutExposingItsSetters() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let cursor = try Row.fetchCursor(db, sql: "SELECT a, b AS c FROM t WHERE a > ?;", arguments: [1])
            #expect(cursor.sql == "SELECT a, b AS c FROM t WHERE a > ?")
            #expect(cursor.arguments == [1])
            #expect(cursor.columnNames == ["a", "c"])
            #expect(cursor.columnCount == 2)
            #expect(cursor.databaseRegion.description == "t(a,b)")
            let values = try Int.fetchCursor(db, sql: "SELECT COUNT(*) FROM t")
            #expect(values.databaseRegion.description == "t(*)")
        }
    }

    @Test func cachedStatementsAreReused() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            let first = try db.cachedStatement(sql: "SELECT ?")
            let second = try db.cachedStatement(sql: "SELECT ?")
            #expect(first === second)
            #expect(try Int.fetchOne(first, arguments: [1]) == 1)
            #expect(try Int.fetchOne(second, arguments: [2]) == 2)
            #expect(try db.makeStatement(sql: "SELECT 1") !== db.makeStatement(sql: "SELECT 1"))
        }
    }

    /// The error of several statements keeps the SQL as given, and its
    /// description shows it without the separators.
    @Test func makeStatementRefusesSeveralStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "  ") }
            #expect(try db.makeStatement(sql: "SELECT 1;  ").columnCount == 1)
            let sql = "SELECT 1; SELECT 2;"
            let error = try #require(throws: DatabaseError.self) { try db.makeStatement(sql: sql) }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.sql == sql)
            #expect(error.description == """
                SQLite error 21: Multiple statements found. To execute multiple statements, \
                use Database.execute(sql:) or Database.allStatements(sql:) instead. \
                - while executing `SELECT 1; SELECT 2`
                """)
        }
    }

    @Test func invalidSQLThrowsWithTheSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            do {
                try db.execute(sql: "SELEKT 1")
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.sql == "SELEKT 1")
                #expect(error.message?.contains("syntax error") == true)
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func constraintViolationsMatchResultCodePatterns(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        var caught: String?
        do {
            try fixture.writer.write { (db) throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
            }
        } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
            caught = "unique"
        } catch DatabaseError.SQLITE_CONSTRAINT {
            caught = "constraint"
        }
        #expect(caught == "unique")

        do {
            try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES (NULL)") }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
            switch error {
            case DatabaseError.SQLITE_CONSTRAINT: break
            default: Issue.record("primary code pattern should match")
            }
        }
    }

    @Test func errorDescriptionsHideArgumentsByDefault() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (secret TEXT UNIQUE)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["hunter2"])
            do {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["hunter2"])
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.description.contains("INSERT INTO t VALUES (?)"))
                #expect(!error.description.contains("hunter2"))
                #expect(!error.localizedDescription.contains("hunter2"))
                #expect(!"\(error)".contains("hunter2"))
            }
        }
    }

    @Test func publicStatementArgumentsShowsArgumentsInErrors() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (value TEXT UNIQUE)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["visible"])
            do {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["visible"])
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.description.contains("visible"))
            }
        }
    }

    @Test func errorsAndTracesRedactKeysTypedIntoSQL() throws {
        let folder = try TemporaryFolder()
        let dbQueue = try DatabaseQueue(path: folder.path("db.sqlite"), configuration: encryptedConfiguration())
        let traced = TraceLog()
        try dbQueue.writeWithoutTransaction { (db) throws in
            db.trace { traced.append($0.description) }
            try db.execute(sql: "ATTACH DATABASE ? AS other KEY 'attach-secret'", arguments: [folder.path("other.sqlite")])
            try db.execute(sql: "DETACH DATABASE other")
            do {
                try db.execute(sql: "PRAGMA rekey = 'rekey-secret' garbage")
            } catch let error as DatabaseError {
                #expect(!error.description.contains("rekey-secret"))
            }
            db.trace(nil)
        }
        #expect(!traced.lines.isEmpty)
        #expect(!traced.lines.joined().contains("attach-secret"))
        #expect(traced.lines.contains { $0.contains("KEY <redacted>") })
    }

    @Test func traceHidesArgumentsUnlessExpanded() throws {
        let dbQueue = try DatabaseQueue()
        let traced = TraceLog()
        let expanded = TraceLog()
        try dbQueue.write { (db) throws in
            db.trace { event in
                traced.append(event.description)
                expanded.append(event.expandedDescription)
            }
            _ = try String.fetchAll(db, sql: "SELECT ?", arguments: ["hunter2"])
        }
        #expect(traced.lines.contains("SELECT ?"))
        #expect(!traced.lines.joined().contains("hunter2"))
        #expect(expanded.lines.contains("SELECT 'hunter2'"))
    }

    @Test func tracedSQLIsTrimmedOfSeparatorsAsStatementSQLIs() throws {
        let dbQueue = try DatabaseQueue()
        let traced = TraceLog()
        let expanded = TraceLog()
        try dbQueue.write { (db) throws in
            db.trace { event in
                traced.append(event.description)
                expanded.append(event.expandedDescription)
            }
            try db.execute(sql: "  CREATE TABLE t (a);  \n INSERT INTO t VALUES (?) ;", arguments: [1])
            db.trace(nil)
        }
        #expect(traced.lines == ["CREATE TABLE t (a)", "INSERT INTO t VALUES (?)"])
        #expect(expanded.lines == ["CREATE TABLE t (a)", "INSERT INTO t VALUES (1)"])
    }

    @Test func profileTraceReportsDurations() throws {
        let dbQueue = try DatabaseQueue()
        let traced = TraceLog()
        try dbQueue.read { (db) throws in
            db.trace(options: .profile) { event in
                if case let .profile(statement, duration) = event, duration >= 0 {
                    traced.append(statement.sql)
                }
            }
            _ = try Int.fetchOne(db, sql: "SELECT 42")
        }
        #expect(traced.lines.contains("SELECT 42"))
    }

    @Test func functionsAreCallableFromSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0]).map { String($0.reversed()) }
            }
            db.add(function: reverse)
            #expect(try String.fetchOne(db, sql: "SELECT reverse('abc')") == "cba")
            let failing = DatabaseFunction("failing", argumentCount: 0) { _ in
                throw DatabaseError(message: "custom failure")
            }
            db.add(function: failing)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT failing()") }
            db.remove(function: reverse)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT reverse('abc')") }
        }
    }

    @Test func cursorsIterateLazilyAndCompose() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            let sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10) SELECT x FROM c"
            #expect(try Array(Int.fetchCursor(db, sql: sql).filter { $0 % 2 == 0 }.map { $0 * 10 }) == [20, 40, 60, 80, 100])
            #expect(try Int.fetchCursor(db, sql: sql).reduce(0, +) == 55)
            #expect(try Int.fetchCursor(db, sql: sql).first { $0 > 3 } == 4)
            #expect(try Int.fetchCursor(db, sql: sql).contains(7))
            #expect(try Array(Int.fetchCursor(db, sql: sql).compactMap { $0 > 8 ? $0 : nil }) == [9, 10])
            #expect(try Array(Int.fetchCursor(db, sql: sql).prefix(2)) == [1, 2])
            var sum = 0
            try Row.fetchCursor(db, sql: sql).forEach { sum += $0[0] as Int }
            #expect(sum == 55)
            #expect(try Int.fetchSet(db, sql: sql).count == 10)
            let cursor = try Int.fetchCursor(db, sql: sql)
            while try cursor.next() != nil {}
            #expect(try cursor.next() == nil) // stays exhausted
        }
    }

    @Test func lastInsertedRowIDAndChangesCounts() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
            try db.execute(sql: "INSERT INTO t (v) VALUES (1), (2), (3)")
            #expect(db.lastInsertedRowID == 3)
            #expect(db.changesCount == 3)
            let before = db.totalChangesCount
            try db.execute(sql: "UPDATE t SET v = 0 WHERE id > 1")
            #expect(db.changesCount == 2)
            #expect(db.totalChangesCount == before + 2)
        }
    }
}

/// Collects trace lines from a callback.
final class TraceLog: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) {
        lock.withLock { storage.append(line) }
    }

    var lines: [String] {
        lock.withLock { storage }
    }
}

/// A pool's reads drop their cached statements when another connection
/// changed the schema, as GRDB's readers do: a cached `SELECT *` then
/// shows a column added since.
@Suite struct CachedStatementSchemaTests {
    @Test func aPoolReadsCachedSelectSeesAColumnAddedByTheWriter() throws {
        let fixture = try DatabaseFixture(.pool)
        try fixture.createPlayerTable()
        try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        func columns() throws -> [String] {
            try fixture.writer.read { db in try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM player"))?.columnNames ?? [] }
        }
        #expect(try columns() == ["id", "name", "score"])
        try fixture.writer.write { db in try db.execute(sql: "ALTER TABLE player ADD COLUMN team TEXT") }
        let after = try columns()
        #expect(after == ["id", "name", "score", "team"])
    }
}
