import CipherDB
import Foundation
import PlayersOnServer
import Synchronization

/// The server's encrypted database as the tests open it: with the
/// passphrase the servers of the tests are given, and the size of its
/// pages, as the server and its backups open it.
enum ServerDatabase {
    static let passphrase = "server secret"
    static let environment = ["PLAYERS_PASSPHRASE": passphrase]

    static func open(_ path: String) throws -> DatabaseQueue {
        let key = DatabaseKeySource.passphrase { Data(passphrase.utf8) }
        return try DatabaseQueue(path: path, configuration: try ServerDatabaseFile.configuration(ofFileAt: path, key: key))
    }

    static func playerCount(_ path: String) throws -> Int {
        let queue = try open(path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_server_row WHERE \(livePlayers)") ?? -1 }
    }

    /// The condition of the engine's rows that are live players.
    static let livePlayers = "table_name = 'player' AND deleted_at IS NULL"

    /// The rows of the live players, to compare two databases.
    static func players(_ path: String) throws -> [String] {
        let queue = try open(path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, version, row_values FROM sync_server_row WHERE \(livePlayers) ORDER BY id").map(\.description)
        }
    }
}

/// Holds a transaction open on a database from another connection until
/// released: the write lock (the server's writes then wait, up to its
/// busy timeout), or a read (the server's checkpoints cannot move the
/// pages it reads). Rolled back: the database does not change.
final class TransactionHolder: @unchecked Sendable {
    // @unchecked: the semaphores synchronize the thread and the test.
    private let locked = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    /// The write lock: `BEGIN IMMEDIATE`.
    static func writeLock(_ path: String) throws -> TransactionHolder {
        try TransactionHolder(path, beginning: "BEGIN IMMEDIATE")
    }

    /// A read of the server's rows, whose snapshot stays until released.
    static func read(_ path: String) throws -> TransactionHolder {
        try TransactionHolder(path, beginning: "BEGIN DEFERRED; SELECT COUNT(*) FROM sync_server_row")
    }

    /// Throws what `sql` threw: the transaction is not open then.
    private init(_ path: String, beginning sql: String) throws {
        let queue = try ServerDatabase.open(path)
        let failure = Mutex<(any Error)?>(nil)
        Thread { [locked, release, done] in
            do {
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: sql)
                    locked.signal()
                    release.wait()
                    try db.execute(sql: "ROLLBACK")
                }
            } catch {
                failure.withLock { $0 = error }
                locked.signal()
            }
            try? queue.close()
            done.signal()
        }.start()
        locked.wait()
        if let error = failure.withLock({ $0 }) {
            done.wait()
            throw error
        }
    }

    func unlock() {
        release.signal()
        done.wait()
    }
}

/// `{"values": {"name": …, "score": …}}` for POST /v1/rows/player.
func playerJSON(_ index: Int) -> String {
    #"{"values":{"name":"Player \#(index)","score":\#(index)}}"#
}

let jsonHeaders = ["Content-Type": "application/json"]
