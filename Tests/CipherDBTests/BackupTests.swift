import CipherDB
import Foundation
import TestSupport
import Testing

@Suite struct BackupTests {
    func makeSource(_ kind: DatabaseKind, folder: TemporaryFolder) throws -> any DatabaseWriter {
        let source = try kind.open(path: folder.path("source.sqlite"), configuration: encryptedConfiguration("source"))
        try source.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (value TEXT)")
            for index in 0..<500 {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["BACKUP-SECRET \(index)"])
            }
        }
        return source
    }

    @Test(arguments: DatabaseKind.allCases)
    func backupToAKeyedDestinationStaysEncrypted(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let source = try makeSource(kind, folder: folder)
        let destinationPath = folder.path("backup.sqlite")
        let destination = try DatabaseQueue(path: destinationPath, configuration: encryptedConfiguration("destination"))
        var steps: [DatabaseBackupProgress] = []
        try source.backup(to: destination, pagesPerStep: 2) { steps.append($0) }
        #expect(steps.count > 1)
        #expect(steps.last?.isCompleted == true)
        #expect(steps.last?.remainingPageCount == 0)
        #expect(try destination.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 500)
        try destination.close()

        let bytes = try Data(contentsOf: URL(fileURLWithPath: destinationPath))
        #expect(!bytes.starts(with: Data("SQLite format 3".utf8)))
        #expect(!bytes.contains("BACKUP-SECRET"))
        let reopened = try DatabaseQueue(path: destinationPath, configuration: encryptedConfiguration("destination"))
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 500)
    }

    @Test(arguments: DatabaseKind.allCases)
    func backupToAnUnkeyedDestinationIsRefused(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let source = try makeSource(kind, folder: folder)
        let destinationPath = folder.path("plain.sqlite")
        let destination = try DatabaseQueue(path: destinationPath)
        do {
            try source.backup(to: destination)
            Issue.record("expected the backup to be refused")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message?.contains("plaintext") == true)
        }
        #expect(try destination.read { try $0.tableExists("t") } == false)
        try destination.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: destinationPath))
        #expect(!bytes.contains("BACKUP-SECRET"))
    }

    @Test func explicitPlaintextBackupWritesPlaintext() throws {
        let folder = try TemporaryFolder()
        let source = try makeSource(.queue, folder: folder)
        let destinationPath = folder.path("plain.sqlite")
        let destination = try DatabaseQueue(path: destinationPath)
        try source.backup(to: destination, allowsPlaintextDestination: true)
        try destination.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: destinationPath))
        #expect(bytes.starts(with: Data("SQLite format 3".utf8)))
        #expect(try DatabaseQueue(path: destinationPath).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 500)
    }

    @Test func throwingFromProgressAbortsTheBackup() throws {
        struct Stop: Error {}
        let folder = try TemporaryFolder()
        let source = try makeSource(.queue, folder: folder)
        let destination = try DatabaseQueue(path: folder.path("backup.sqlite"), configuration: encryptedConfiguration("destination"))
        #expect(throws: Stop.self) {
            try source.backup(to: destination, pagesPerStep: 1) { _ in throw Stop() }
        }
        #expect(try destination.read { try $0.tableExists("t") } == false)
    }
}
