import CipherDB
import Testing

@Suite struct CursorTests {
    /// A cursor that counts how it is iterated.
    final class CountingCursor: Cursor {
        private var elements: [Int]
        private(set) var forEachCount = 0

        init(_ elements: [Int]) { self.elements = elements }

        func next() -> Int? { elements.isEmpty ? nil : elements.removeFirst() }

        func forEach(_ body: (Int) throws -> Void) throws {
            forEachCount += 1
            while let element = next() { try body(element) }
        }
    }

    @Test func collectionsIterateWithTheCursorsForEach() throws {
        let cursor = CountingCursor([1, 2, 3])
        #expect(try Array(cursor.map { $0 * 10 }) == [10, 20, 30])
        #expect(cursor.forEachCount == 1)
    }

    @Test func dropLastAndSuffixKeepTheRightElements() throws {
        #expect(try AnyCursor([1, 2, 3, 4]).dropLast(2) == [1, 2])
        #expect(try AnyCursor([1, 2, 3, 4]).dropLast() == [1, 2, 3])
        #expect(try AnyCursor([1, 2, 3, 4, 5]).suffix(2) == [4, 5])
        #expect(try AnyCursor([1, 2]).suffix(5) == [1, 2])
    }

    @Test func minAndMaxCompareElements() throws {
        #expect(try AnyCursor([3, 1, 2]).min() == 1)
        #expect(try AnyCursor([3, 1, 2]).max() == 3)
        #expect(try AnyCursor(["bb", "a", "ccc"]).max { $0.count < $1.count } == "ccc")
        #expect(try AnyCursor([Int]()).min() == nil)
    }

    @Test func joinedFlattensAndConcatenates() throws {
        #expect(try Array(AnyCursor([[1, 2], [], [3]]).joined()) == [1, 2, 3])
        #expect(try Array(AnyCursor([AnyCursor([1]), AnyCursor([2, 3])]).joined()) == [1, 2, 3])
        #expect(try AnyCursor(["a", "b", "c"]).joined(separator: ", ") == "a, b, c")
    }

    @Test func adaptersSkipAndNumberElements() throws {
        #expect(try Array(AnyCursor([1, 2, 3, 1]).drop { $0 < 3 }) == [3, 1])
        #expect(try Array(AnyCursor([1, 2, 3]).dropFirst()) == [2, 3])
        #expect(try Array(AnyCursor([1, 2, 3, 1]).prefix { $0 < 3 }) == [1, 2])
        #expect(try Array(AnyCursor(["a", "b"]).enumerated()).map { "\($0.0)\($0.1)" } == ["0a", "1b"])
        #expect(try Array(AnyCursor([1, 2]).flatMap { [$0, $0] }) == [1, 1, 2, 2])
    }

    @Test func dictionariesAndSetsFromCursors() throws {
        let grouped = try Dictionary(grouping: AnyCursor([1, 2, 3, 4]), by: { $0 % 2 })
        #expect(grouped == [0: [2, 4], 1: [1, 3]])
        let pairs = try Dictionary(uniqueKeysWithValues: AnyCursor([(1, "a"), (2, "b")]))
        #expect(pairs == [1: "a", 2: "b"])
        var set: Set = [1]
        try set.formUnion(AnyCursor([2, 3]))
        #expect(set == [1, 2, 3])
        #expect(try set.intersection(AnyCursor([3, 4])) == [3])
    }

    @Test func databaseCursorsWorkWithTheExtras() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let values = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 5 UNION ALL SELECT 3")
            #expect(try values.max() == 5)
        }
    }

    @Test func aDatabaseCursorThatFailedKeepsFailing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(function: DatabaseFunction("fail", argumentCount: 1) { values in
                if Int.fromDatabaseValue(values[0]) == 2 { throw DatabaseError(message: "no two") }
                return values[0]
            })
            let sql = "SELECT fail(x) FROM (SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 3)"
            let values = try Int.fetchCursor(db, sql: sql)
            #expect(try values.next() == 1)
            for _ in 0..<2 {
                // Never nil: a failed cursor must not look exhausted.
                #expect(throws: DatabaseError.self) { try values.next() }
            }
            let rows = try Row.fetchCursor(db, sql: sql)
            #expect(throws: DatabaseError.self) { try Array(rows) }
            #expect(throws: DatabaseError.self) { try rows.next() }
        }
    }

    @Test func aCursorReleasedBeforeItsEndLeavesNoReadTransactionOpen() throws {
        var configuration = encryptedConfiguration()
        configuration.maximumReaderCount = 1
        let fixture = try DatabaseFixture(.pool, configuration: configuration)
        try fixture.createPlayerTable()
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
        }
        // The only reader steps one row of two, and lets the cursor go.
        try fixture.writer.read { (db) throws in
            _ = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM player")).next()
        }
        try fixture.writer.write { (db) throws in try db.execute(sql: "INSERT INTO player (name) VALUES ('Craig')") }
        // The same reader sees the new row: its connection left the
        // snapshot of the unfinished statement.
        #expect(try fixture.writer.read { (db) throws in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 3)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aCursorReleasedBeforeItsEndDoesNotPreventErase(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
            _ = try Row.fetchCursor(db.cachedStatement(sql: "SELECT * FROM player")).next()
        }
        try fixture.writer.erase()
        #expect(try fixture.writer.read { (db) throws in try db.tableExists("player") } == false)
    }
}
