import CipherDB
import Foundation
import Testing

/// Row adapters: columns chosen, renamed and nested into scopes, on every
/// fetch method that takes an adapter.
@Suite struct RowAdapterTests {
    struct Team: FetchableRecord, Equatable {
        var id: Int
        var name: String
        init(row: Row) throws {
            id = try row.decode(forColumn: "id")
            name = try row.decode(forColumn: "name")
        }
        init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// A player (id, name) and its team (id, name), left to right.
    static let playerAndTeamSQL = "SELECT 1 AS id, 'Arthur' AS name, 10 AS id, 'Reds' AS name"

    @Test func columnMappingChoosesAndRenamesColumnsInTheirOrder() throws {
        try DatabaseQueue().read { (db) throws in
            let adapter = ColumnMapping(["second": "b", "first": "a"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: adapter))
            #expect(row.columnNames == ["first", "second"])
            #expect(row["second"] as Int == 2)
            #expect(row.unadapted == ["a": 1, "b": 2, "c": 3])
        }
    }

    @Test func columnMappingOfAMissingColumnThrows() throws {
        // The closure's one expression is #expect, which returns the error.
        _ = try DatabaseQueue().read { (db) throws in
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT 1 AS a", adapter: ColumnMapping(["x": "missing"]))
            }
        }
    }

    @Test func rangeSuffixEmptyAndRenameAdapters() throws {
        try DatabaseQueue().read { (db) throws in
            let sql = "SELECT 1 AS a, 2 AS b, 3 AS c"
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1..<2)) == ["b": 2])
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(0...1)) == ["a": 1, "b": 2])
            #expect(try Row.fetchOne(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)) == ["c": 3])
            #expect(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter())?.count == 0)
            let renamed = try Row.fetchOne(db, sql: sql, adapter: RenameColumnAdapter { "x" + $0 })
            #expect(renamed?.columnNames == ["xa", "xb", "xc"])
        }
    }

    @Test func splittingRowAdaptersCoverEveryColumn() throws {
        try DatabaseQueue().read { (db) throws in
            let adapters = splittingRowAdapters(columnCounts: [1, 2])
            #expect(adapters.count == 3)
            let rows = try adapters.map { try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b, 3 AS c, 4 AS d", adapter: $0)! }
            #expect(rows == [["a": 1], ["b": 2, "c": 3], ["d": 4]])
        }
    }

    @Test func valuesReadTheLeftmostAdaptedColumn() throws {
        try DatabaseQueue().read { (db) throws in
            let adapter = SuffixRowAdapter(fromIndex: 1)
            #expect(try Int.fetchOne(db, sql: "SELECT 1, 2", adapter: adapter) == 2)
            #expect(try Int.fetchAll(db, sql: "SELECT 1, '3'", adapter: adapter) == [3])
            #expect(try URL.fetchOne(db, sql: "SELECT 1, 'https://a.b'", adapter: adapter) == URL(string: "https://a.b"))
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: "SELECT 1", adapter: EmptyRowAdapter()) }
        }
    }

    @Test func recordsDecodeFromAdaptedRows() throws {
        try DatabaseQueue().read { (db) throws in
            let teams = try Team.fetchAll(db, sql: Self.playerAndTeamSQL, adapter: SuffixRowAdapter(fromIndex: 2))
            #expect(teams == [Team(id: 10, name: "Reds")])
        }
    }

    @Test func scopesNestRowsAndDecodeRecords() throws {
        try DatabaseQueue().read { (db) throws in
            let adapter = ScopeAdapter([
                "player": RangeRowAdapter(0..<2),
                "team": SuffixRowAdapter(fromIndex: 2)])
            let cursor = try Row.fetchCursor(db, sql: Self.playerAndTeamSQL, adapter: adapter)
            let row = try #require(try cursor.next())
            #expect(Set(row.scopes.names) == ["player", "team"])
            #expect(row.scopes["player"] == ["id": 1, "name": "Arthur"])
            #expect(row["team"] as Team == Team(id: 10, name: "Reds"))
            #expect(try row.decode(Team.self, forKey: "player") == Team(id: 1, name: "Arthur"))
            #expect(row.scopes["missing"] == nil)
            #expect(throws: RowDecodingError.self) { try row.decode(Team.self, forKey: "missing") }
            #expect(row.unscoped.scopes.isEmpty)
            // A copy keeps its columns and scopes.
            let copy = row.copy()
            #expect(copy == row)
            #expect(copy.scopes["team"] == ["id": 10, "name": "Reds"])
        }
    }

    @Test func nestedScopesAreFoundInTheScopesTree() throws {
        try DatabaseQueue().read { (db) throws in
            let adapter = ScopeAdapter([
                "player": ScopeAdapter(base: RangeRowAdapter(0..<2), scopes: ["team": SuffixRowAdapter(fromIndex: 2)])])
            let row = try #require(try Row.fetchOne(db, sql: Self.playerAndTeamSQL, adapter: adapter))
            #expect(row.scopes["team"] == nil)
            #expect(row.scopes["player"]?.scopes["team"] == ["id": 10, "name": "Reds"])
            #expect(row.scopesTree["team"] == ["id": 10, "name": "Reds"])
            #expect(row.scopesTree.names == ["player", "team"])
        }
    }

    @Test func scopeOfNullsIsAMissingRecord() throws {
        try DatabaseQueue().read { (db) throws in
            let adapter = ScopeAdapter(["team": SuffixRowAdapter(fromIndex: 2)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS id, 'Arthur' AS name, NULL AS id, NULL AS name", adapter: adapter))
            #expect(row.scopes["team"]?.containsNonNullValue == false)
            #expect(try row.decodeIfPresent(Team.self, forKey: "team") == nil)
            #expect(row["team"] as Team? == nil)
            #expect(throws: RowDecodingError.self) { try row.decode(Team.self, forKey: "team") }
            #expect(row.containsNonNullValue)
        }
    }

    @Test func requestsCarryAndChainAdapters() throws {
        try DatabaseQueue().read { (db) throws in
            let request = SQLRequest<Int>(sql: "SELECT ?, ?, ?", arguments: [1, 2, 3], adapter: SuffixRowAdapter(fromIndex: 1))
            #expect(try request.makePreparedRequest(db).adapter != nil)
            #expect(try request.fetchOne(db) == 2)
            let chained = request.adapted { _ in SuffixRowAdapter(fromIndex: 1) }
            #expect(try chained.fetchOne(db) == 3)
            let rows = SQLRequest<Row>(sql: "SELECT 1 AS a, 2 AS b").adapted { _ in ColumnMapping(["value": "b"]) }
            #expect(try rows.fetchAll(db) == [["value": 2]])
        }
    }
}

/// Decodable records read a property with no column from the scope of the
/// same name.
@Suite struct DecodableScopeTests {
    struct Team: Decodable, FetchableRecord, Equatable {
        var id: Int
        var name: String
    }

    struct Player: Decodable, FetchableRecord, Equatable {
        var id: Int
        var name: String
        var team: Team?
    }

    @Test func nestedRecordDecodesFromItsScope() throws {
        try DatabaseQueue().read { (db) throws in
            let players = try Player.fetchAll(db, sql: "SELECT 1 AS id, 'Arthur' AS name, 10 AS id, 'Reds' AS name",
                                              adapter: RangeRowAdapter(0..<2).addingScopes(["team": SuffixRowAdapter(fromIndex: 2)]))
            #expect(players == [Player(id: 1, name: "Arthur", team: Team(id: 10, name: "Reds"))])
        }
    }

    @Test func scopeOfNullsDecodesAsNil() throws {
        try DatabaseQueue().read { (db) throws in
            let player = try Player.fetchOne(db, sql: "SELECT 1 AS id, 'Arthur' AS name, NULL AS id, NULL AS name",
                                             adapter: RangeRowAdapter(0..<2).addingScopes(["team": SuffixRowAdapter(fromIndex: 2)]))
            #expect(player == Player(id: 1, name: "Arthur", team: nil))
        }
    }
}
