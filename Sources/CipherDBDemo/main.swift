import CipherDB
import Foundation

// The end-to-end demo of `make demo`: creates an encrypted database, writes,
// reads back, and shows that the file is unreadable without the passphrase.

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cipherdb-demo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let path = folder.appendingPathComponent("demo.sqlite").path

// A passphrase generated for the demo: never printed.
let passphrase = UUID().uuidString

var config = Configuration()
config.prepareDatabase { db in
    try db.usePassphrase(passphrase)
}

let dbPool = try DatabasePool(path: path, configuration: config)
try dbPool.write { db in
    try db.execute(sql: """
        CREATE TABLE player (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL,
            score INTEGER NOT NULL)
        """)
    for (name, score) in [("Arthur", 1000), ("Barbara", 750), ("Craig", 1200)] {
        try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(score))")
    }
}
let cipherVersion = try dbPool.read { try $0.cipherVersion }
print("Created an encrypted database with SQLCipher \(cipherVersion).")

let rows = try dbPool.read { db in
    try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY score DESC")
}
print("Read back with the passphrase:")
for row in rows {
    let name: String = row["name"]
    let score: Int = row["score"]
    print("  \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(score)")
}
try dbPool.writeWithoutTransaction { db in
    _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
}
try dbPool.close()

let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
let header = String(decoding: bytes.prefix(15), as: UTF8.self)
let containsName = bytes.range(of: Data("Arthur".utf8)) != nil
print("The file has \(bytes.count) bytes; starts with \"SQLite format 3\": \(header == "SQLite format 3"); contains \"Arthur\": \(containsName).")

do {
    _ = try DatabaseQueue(path: path)
    print("FAILED: the database opened without a passphrase.")
    exit(1)
} catch let error as DatabaseError {
    print("Opening without the passphrase fails: \(error.message ?? "")")
}
var wrongConfig = Configuration()
wrongConfig.prepareDatabase { db in try db.usePassphrase("not the passphrase") }
do {
    _ = try DatabaseQueue(path: path, configuration: wrongConfig)
    print("FAILED: the database opened with a wrong passphrase.")
    exit(1)
} catch let error as DatabaseError {
    print("Opening with a wrong passphrase fails: \(error.message ?? "")")
}
if header == "SQLite format 3" || containsName {
    print("FAILED: the file is not encrypted.")
    exit(1)
}
print("Demo complete.")
