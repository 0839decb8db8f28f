import CipherDB
import CSQLCipher
import Foundation

/// The `item(i0 … i9)` workloads of GRDB's performance suite: fetches by
/// column index, by name, as records and as Decodable records; inserts
/// with positional and named arguments, as records and as Encodable
/// records.
struct ItemWorkloads {
    let folder: URL
    let fetchCount: Int
    let insertCount: Int

    static let columns = (0..<10).map { "i\($0)" }
    static let createTable = "CREATE TABLE item (" + columns.map { "\($0) INTEGER" }.joined(separator: ", ") + ")"
    static let positionalInsert = "INSERT INTO item VALUES (" + Array(repeating: "?", count: 10).joined(separator: ", ") + ")"
    static let namedInsert = "INSERT INTO item VALUES (" + columns.map { ":\($0)" }.joined(separator: ", ") + ")"

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        try await runFetches(&harness, mode: mode)
        try await runInserts(&harness, mode: mode)
    }

    // MARK: - Fetches

    private func runFetches(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let path = folder.appendingPathComponent("fetch-\(mode.rawValue).db").path
        try Self.createFixture(path: path, mode: mode, rows: fetchCount)
        let dbQueue = try DatabaseQueue(path: path, configuration: Self.configuration(mode))
        let raw = try RawSQLite(path: path, mode: mode)
        let expected = Self.fixtureSum(rows: fetchCount)
        func baseline() throws {
            let statement = try raw.prepare("SELECT * FROM item")
            defer { sqlite3_finalize(statement) }
            var count: Int64 = 0
            while sqlite3_step(statement) == SQLITE_ROW {
                for index in 0..<Int32(10) { count &+= sqlite3_column_int64(statement, index) }
            }
            try check(count, expected)
        }

        try await harness.measure("fetch \(fetchCount) rows by column index", mode: mode, subject: {
            let count = try dbQueue.read { db -> Int64 in
                var count: Int64 = 0
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM item")
                while let row = try rows.next() {
                    for index in 0..<10 { count &+= row[index] as Int64 }
                }
                return count
            }
            try check(count, expected)
        }, baseline: baseline)

        try await harness.measure("fetch \(fetchCount) rows by column name", mode: mode, subject: {
            let count = try dbQueue.read { db -> Int64 in
                var count: Int64 = 0
                let rows = try Row.fetchCursor(db, sql: "SELECT * FROM item")
                while let row = try rows.next() {
                    count &+= row["i0"] as Int64; count &+= row["i1"] as Int64; count &+= row["i2"] as Int64
                    count &+= row["i3"] as Int64; count &+= row["i4"] as Int64; count &+= row["i5"] as Int64
                    count &+= row["i6"] as Int64; count &+= row["i7"] as Int64; count &+= row["i8"] as Int64
                    count &+= row["i9"] as Int64
                }
                return count
            }
            try check(count, expected)
        }, baseline: baseline)

        func fetchRecords<Record: FetchableRecord & ItemColumns>(_ type: Record.Type) throws {
            let count = try dbQueue.read { db -> Int64 in
                var count: Int64 = 0
                let items = try Record.fetchCursor(db, sql: "SELECT * FROM item")
                while let item = try items.next() { count &+= item.sum }
                return count
            }
            try check(count, expected)
        }
        try await harness.measure("fetch \(fetchCount) records, init(row:)", mode: mode,
                            subject: { try fetchRecords(Item.self) }, baseline: baseline)
        try await harness.measure("fetch \(fetchCount) Decodable records", mode: mode,
                            subject: { try fetchRecords(CodableItem.self) }, baseline: baseline)
    }

    /// `rows` rows, each of which holds its row number in its ten columns,
    /// as in the fixture of GRDB's performance suite.
    static func createFixture(path: String, mode: EncryptionMode, rows: Int) throws {
        try removeDatabaseFiles(path)
        let raw = try RawSQLite(path: path, mode: mode)
        try raw.execute(createTable)
        try raw.execute("BEGIN")
        let statement = try raw.prepare(positionalInsert)
        defer { sqlite3_finalize(statement) }
        for row in 0..<rows {
            for index in 0..<Int32(10) { sqlite3_bind_int64(statement, index + 1, Int64(row)) }
            try raw.check(sqlite3_step(statement))
            sqlite3_reset(statement)
        }
        try raw.execute("COMMIT")
    }

    // MARK: - Inserts

    private func runInserts(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let path = folder.appendingPathComponent("insert-\(mode.rawValue).db").path
        let removeFiles = { try removeDatabaseFiles(path) }
        let configuration = Self.configuration(mode)
        let count = insertCount
        // Open, create the table, insert in one transaction, commit, close.
        func baseline() throws {
            let raw = try RawSQLite(path: path, mode: mode)
            try raw.execute(Self.createTable)
            try raw.execute("BEGIN")
            let statement = try raw.prepare(Self.positionalInsert)
            defer { sqlite3_finalize(statement) }
            for row in 0..<count {
                for index in 0..<Int32(10) { sqlite3_bind_int64(statement, index + 1, Int64(row)) }
                try raw.check(sqlite3_step(statement))
                sqlite3_reset(statement)
            }
            try raw.execute("COMMIT")
        }
        func subject(_ insert: @escaping (Database) throws -> Void) -> () throws -> Void {
            {
                let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
                try dbQueue.write { db in
                    try db.execute(sql: Self.createTable)
                    try insert(db)
                }
            }
        }

        try await harness.measure("insert \(count) rows, positional arguments", mode: mode, prepare: removeFiles, subject: subject { db in
            let statement = try db.makeStatement(sql: Self.positionalInsert)
            for row in 0..<count {
                let value = Int64(row)
                try statement.execute(arguments: [value, value, value, value, value, value, value, value, value, value])
            }
        }, baseline: baseline)

        try await harness.measure("insert \(count) rows, named arguments", mode: mode, prepare: removeFiles, subject: subject { db in
            let statement = try db.makeStatement(sql: Self.namedInsert)
            for row in 0..<count {
                let value = Int64(row)
                try statement.execute(arguments: ["i0": value, "i1": value, "i2": value, "i3": value, "i4": value,
                                                  "i5": value, "i6": value, "i7": value, "i8": value, "i9": value])
            }
        }, baseline: baseline)

        try await harness.measure("insert \(count) records", mode: mode, prepare: removeFiles, subject: subject { db in
            for row in 0..<count {
                try Item(value: Int64(row)).insert(db)
            }
        }, baseline: baseline)

        try await harness.measure("insert \(count) Encodable records", mode: mode, prepare: removeFiles, subject: subject { db in
            for row in 0..<count {
                try CodableItem(value: Int64(row)).insert(db)
            }
        }, baseline: baseline)
    }

    static func configuration(_ mode: EncryptionMode) -> Configuration {
        var configuration = Configuration()
        switch mode {
        case .plaintext: break
        case .rawKey: configuration.prepareDatabase { db in try db.useRawKey(EncryptionMode.rawKey32) }
        case .passphrase: configuration.prepareDatabase { db in try db.usePassphrase(EncryptionMode.passphraseText) }
        }
        return configuration
    }

    /// The sum of all columns of the fixture of `rows` rows.
    static func fixtureSum(rows: Int) -> Int64 {
        10 * Int64(rows) * Int64(rows - 1) / 2
    }

    private func check(_ count: Int64, _ expected: Int64) throws {
        guard count == expected else { throw BenchError("read \(count) instead of \(expected): the workload is wrong") }
    }
}

/// The ten columns of an item, and their sum (what the fetches check).
protocol ItemColumns {
    var i0: Int64 { get }
    var i1: Int64 { get }
    var i2: Int64 { get }
    var i3: Int64 { get }
    var i4: Int64 { get }
    var i5: Int64 { get }
    var i6: Int64 { get }
    var i7: Int64 { get }
    var i8: Int64 { get }
    var i9: Int64 { get }
}

extension ItemColumns {
    var sum: Int64 { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// A record decoded by hand, by column index (GRDB's optimized record).
struct Item: FetchableRecord, PersistableRecord, ItemColumns {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

    init(value: Int64) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (value, value, value, value, value, value, value, value, value, value)
    }

    init(row: Row) throws {
        i0 = row[0]; i1 = row[1]; i2 = row[2]; i3 = row[3]; i4 = row[4]
        i5 = row[5]; i6 = row[6]; i7 = row[7]; i8 = row[8]; i9 = row[9]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["i0"] = i0; container["i1"] = i1; container["i2"] = i2; container["i3"] = i3; container["i4"] = i4
        container["i5"] = i5; container["i6"] = i6; container["i7"] = i7; container["i8"] = i8; container["i9"] = i9
    }

}

/// The same record through Codable.
struct CodableItem: Codable, FetchableRecord, PersistableRecord, ItemColumns {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

    init(value: Int64) {
        (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) = (value, value, value, value, value, value, value, value, value, value)
    }

}
