import CipherDB
import CSQLCipher
import Foundation

/// The cost of opening: a connection and its first query, where a
/// passphrase pays for key derivation and a raw key does not.
struct OpenWorkloads {
    let folder: URL

    func run(_ harness: inout Harness, mode: EncryptionMode) throws {
        let path = folder.appendingPathComponent("open-\(mode.rawValue).db").path
        try ItemWorkloads.createFixture(path: path, mode: mode, rows: 10)
        let configuration = ItemWorkloads.configuration(mode)
        try harness.measure("open and run a first query", mode: mode, subject: {
            let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
            let count = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") }
            guard count == 10 else { throw BenchError("counted \(count ?? -1) items instead of 10") }
        }, baseline: {
            let raw = try RawSQLite(path: path, mode: mode)
            let statement = try raw.prepare("SELECT COUNT(*) FROM item")
            defer { sqlite3_finalize(statement) }
            try raw.check(sqlite3_step(statement))
            guard sqlite3_column_int64(statement, 0) == 10 else { throw BenchError("the baseline counted wrong") }
        })
    }
}
