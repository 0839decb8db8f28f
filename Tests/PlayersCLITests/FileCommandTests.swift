import CipherDB
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite struct FileCommandTests {
    /// A sandbox with an initialized database holding players.
    func makeSandbox(players: Int = 3) async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        try sandbox.addPlayers((0..<players).map { ("Player\($0) Secretname", $0) })
        return sandbox
    }

    func playerNames(_ sandbox: CLISandbox, _ arguments: [String] = [], environment: [String: String] = [:]) async throws -> [String] {
        let result = try await sandbox.run(["list", "--json", "--order", "name"] + arguments, environment: environment)
        #expect(result.status == 0, "\(result.error)")
        let players = try jsonLines(result.output)
        return players.compactMap { $0["name"] as? String }
    }

    @Test func backupIsEncryptedAndRestores() async throws {
        let sandbox = try await makeSandbox()
        let backup = sandbox.root.appendingPathComponent("backup.db").path
        let result = try await sandbox.run(["backup", backup])
        #expect(result.status == 0, "\(result.error)")
        let attributes = try FileManager.default.attributesOfItem(atPath: backup)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: backup))
        #expect(!bytes.starts(with: Data("SQLite format 3".utf8)))
        #expect(bytes.range(of: Data("Secretname".utf8)) == nil)
        // No temporary file is left next to it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { $0.hasSuffix(".tmp") }.isEmpty)

        let original = try await playerNames(sandbox)
        await #expect(try sandbox.run(["delete", "--all", "--yes"]).status == 0)
        let restore = try await sandbox.run(["restore", backup])
        #expect(restore.status == 0, "\(restore.error)")
        await #expect(try playerNames(sandbox) == original)
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath + ".before-restore"))
        await #expect(try sandbox.run(["verify"]).status == 0)
    }

    @Test func backupRefusesToOverwriteAndNeedsAnExistingFolder() async throws {
        let sandbox = try await makeSandbox()
        let backup = sandbox.root.appendingPathComponent("backup.db").path
        await #expect(try sandbox.run(["backup", backup]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: backup))
        let again = try await sandbox.run(["backup", backup])
        #expect(again.status == 1)
        #expect(again.error.contains("--force"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: backup)) == before)
        await #expect(try sandbox.run(["backup", "--force", backup]).status == 0)

        let missingFolder = try await sandbox.run(["backup", sandbox.root.appendingPathComponent("nowhere/backup.db").path])
        #expect(missingFolder.status == 1)
        #expect(missingFolder.error.contains("does not exist"))
    }

    @Test func plaintextCopiesNeedTheFlagAndWarn() async throws {
        let sandbox = try await makeSandbox()
        let plain = sandbox.root.appendingPathComponent("plain.db").path
        let result = try await sandbox.run(["backup", "--plaintext", plain])
        #expect(result.status == 0)
        #expect(result.error.contains("NOT encrypted"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: plain)).starts(with: Data("SQLite format 3".utf8)))

        let encrypted = sandbox.root.appendingPathComponent("export.db").path
        await #expect(try sandbox.run(["export", encrypted]).status == 0)
        #expect(try !Data(contentsOf: URL(fileURLWithPath: encrypted)).starts(with: Data("SQLite format 3".utf8)))
    }

    @Test func backupWhileAnotherProcessWritesIsConsistent() async throws {
        let sandbox = try await makeSandbox(players: 50)
        let writer = Task.detached {
            var count = 0
            while !Task.isCancelled && count < 200 {
                _ = try? await sandbox.run(["randomize"])
                count += 1
            }
        }
        defer { writer.cancel() }
        for index in 0..<3 {
            let backup = sandbox.root.appendingPathComponent("backup\(index).db").path
            let result = try await sandbox.run(["backup", backup])
            #expect(result.status == 0, "\(result.error)")
            let verify = try await sandbox.run(["verify", "--database", backup])
            #expect(verify.status == 0, "\(verify.error)")
        }
    }

    @Test func exportToAnotherPassphraseKeepsTheMigrations() async throws {
        let sandbox = try await makeSandbox()
        let passphrase = try sandbox.writeSecret("new-passphrase", "export secret")
        let exported = sandbox.root.appendingPathComponent("exported.db").path
        await #expect(try sandbox.run(["export", "--to-passphrase-file", passphrase, exported]).status == 0)
        let info = try await sandbox.run(["info", "--json", "--database", exported, "--passphrase-file", passphrase])
        let report = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
        #expect(report?["migrations"] as? [String] == ["v1", "v2-sync-identity", "v3-sync-state", "v4-outbox", "v5-name-order", "v6-sync-digest", "v7-sync-engine"])
        #expect(report?["playerCount"] as? Int == 3)
        // The database's own key does not open the export.
        await #expect(try sandbox.run(["list", "--database", exported]).status == 3)
    }

    @Test func rekeyMakesTheOldKeyFailAndTheNewOneWork() async throws {
        let sandbox = try await makeSandbox()
        let original = try await playerNames(sandbox)
        let passphrase = try sandbox.writeSecret("new-passphrase", "rekeyed secret")
        let result = try await sandbox.run(["rekey", "--to-passphrase-file", passphrase])
        #expect(result.status == 0, "\(result.error)")
        await #expect(try sandbox.run(["list"]).status == 3) // the default key file no longer opens it
        await #expect(try playerNames(sandbox, ["--passphrase-file", passphrase]) == original)
        await #expect(try sandbox.run(["verify", "--passphrase-file", passphrase]).status == 0)

        // And back to a raw key.
        let key = try sandbox.writeSecret("new-key", String(repeating: "0f", count: 32))
        await #expect(try sandbox.run(["rekey", "--passphrase-file", passphrase, "--to-key-file", key]).status == 0)
        await #expect(try playerNames(sandbox, ["--key-file", key]) == original)
        await #expect(try sandbox.run(["list", "--passphrase-file", passphrase]).status == 3)
    }

    @Test func encryptImportsAPlaintextDatabaseAndLeavesItUntouched() async throws {
        let sandbox = try CLISandbox()
        let source = sandbox.root.appendingPathComponent("plain.sqlite").path
        // A plaintext database, made by Debian's sqlite3 shell.
        let shell = try await run("/usr/bin/sqlite3", [source], input: """
            CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, score INTEGER NOT NULL);
            INSERT INTO player (name, score) VALUES ('Imported', 7);
            """)
        #expect(shell.status == 0)
        let sourceBytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let result = try await sandbox.run(["encrypt", source])
        #expect(result.status == 0, "\(result.error)")
        await #expect(try playerNames(sandbox) == ["Imported"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == sourceBytes)
        let encrypted = try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath))
        #expect(encrypted.range(of: Data("Imported".utf8)) == nil)
    }

    @Test func badSourcesAreRefusedWithoutChanges() async throws {
        let sandbox = try await makeSandbox()
        let before = sandbox.databaseSnapshot()
        let notADatabase = try sandbox.writeSecret("notes.txt", "just text, not a database")
        let restore = try await sandbox.run(["restore", notADatabase])
        #expect(restore.status == 3)
        #expect(restore.error.contains("nothing was restored"))
        let missing = try await sandbox.run(["restore", sandbox.root.appendingPathComponent("missing.db").path])
        #expect(missing.status == 1)
        #expect(sandbox.databaseSnapshot() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: sandbox.databasePath).deletingLastPathComponent().path)
            .allSatisfy { !$0.hasSuffix(".tmp") && !$0.hasSuffix(".before-restore") })

        let encryptNothing = try await CLISandbox().run(["encrypt", notADatabase])
        #expect(encryptNothing.status == 1)
    }
}

@Suite struct ConcurrentProcessTests {
    /// How the other process keys its connections.
    enum HolderKey: CaseIterable {
        /// The key file of `players init`, given with `useRawKey`.
        case rawKey
        /// `PLAYERS_PASSPHRASE`, given through a `DatabaseKeySource`, which
        /// reads the file's salt for each connection it opens.
        case passphrase
    }

    @Test(arguments: HolderKey.allCases)
    func rekeyRefusesWhileAnotherProcessUsesTheDatabase(_ holderKey: HolderKey) async throws {
        let sandbox = try CLISandbox()
        let environment = holderKey == .passphrase ? ["PLAYERS_PASSPHRASE": "old secret"] : [:]
        await #expect(try sandbox.run(["init"], environment: environment).status == 0)
        await #expect(try sandbox.run(["add", "--name", "A", "--score", "1"], environment: environment).status == 0)
        var configuration = Configuration()
        switch holderKey {
        case .rawKey:
            let hexKey = try String(contentsOfFile: sandbox.keyPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let key = try #require(hexData(hexKey))
            configuration.prepareDatabase { db in try db.useRawKey(key) }
        case .passphrase:
            DatabaseKeySource.passphrase { Data("old secret".utf8) }.configure(&configuration)
        }
        // This test process is "another process" for the command: its
        // pool has a writer and readers, each a connection of its own.
        let holder = try DatabasePool(path: sandbox.databasePath, configuration: configuration)
        for _ in 0..<2 {
            _ = try await holder.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }
            holder.invalidateReadOnlyConnections()
        }
        let passphrase = try sandbox.writeSecret("new", "new secret")

        let result = try await sandbox.run(["rekey", "--to-passphrase-file", passphrase], environment: environment)

        #expect(result.status == 1)
        #expect(result.error.contains("another process is using"))
        try holder.close()
        await #expect(try sandbox.run(["list"], environment: environment).status == 0) // the old key still opens it
    }

    @Test func concurrentWritersWaitForEachOther() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        let statuses = try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<6 {
                group.addTask { try await sandbox.run(["add", "--name", "P\(index)", "--score", "\(index)"]).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 0, count: 6))
        let list = try await sandbox.run(["list", "--json"])
        #expect(try jsonLines(list.output).count == 6)
    }

    func hexData(_ hex: String) -> Data? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return Data(bytes)
    }
}

@Suite struct FullDiskTests {
    /// Whether this process may mount a small tmpfs (root in the sandbox).
    static let canMountTmpfs: Bool = {
        guard let probe = try? TemporaryFolder(),
              (try? runBlocking("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path], input: ""))?.status == 0 else { return false }
        _ = try? runBlocking("/bin/umount", [probe.path], input: "")
        return true
    }()

    @Test(.enabled(if: canMountTmpfs, "needs permission to mount a tmpfs"))
    func backupToAFullDiskFailsClearlyAndLeavesNothing() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        try sandbox.insertPlayers(count: 500)
        let small = sandbox.root.appendingPathComponent("small-disk").path
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        await #expect(try run("/bin/mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", small], input: "").status == 0)
        defer { _ = try? runBlocking("/bin/umount", [small], input: "") }
        let before = sandbox.databaseSnapshot()

        let backup = try await sandbox.run(["backup", small + "/backup.db"])

        #expect(backup.status == 1)
        #expect(backup.error.hasPrefix("players: "))
        #expect(backup.error.contains("disk"))
        #expect(backup.error.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: small).isEmpty) // no temporary file left
        #expect(sandbox.databaseSnapshot() == before)
        await #expect(try sandbox.run(["verify"]).status == 0)
    }
}

@Suite struct JSONExportTests {
    @Test func jsonExportIsEncryptedByDefaultAndDecrypts() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        await #expect(try sandbox.run(["add", "--name", "Secretname Dent", "--score", "42"]).status == 0)
        let file = sandbox.root.appendingPathComponent("players.json").path
        let export = try await sandbox.run(["export", "--format", "json", file])
        #expect(export.status == 0, "\(export.error)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(bytes.starts(with: Data("CDBENC02".utf8))) // a raw key: version 2
        #expect(bytes.range(of: Data("Secretname".utf8)) == nil)

        let decrypted = try await sandbox.run(["decrypt", file])
        #expect(decrypted.status == 0, "\(decrypted.error)")
        let payload = try JSONSerialization.jsonObject(with: Data(decrypted.output.utf8)) as? [String: Any]
        #expect(payload?["protocolVersion"] as? Int == 1)
        #expect(payload?["kind"] as? String == "snapshot")
        let players = payload?["players"] as? [[String: Any]]
        #expect(players?.first?["name"] as? String == "Secretname Dent")
        #expect((players?.first?["uuid"] as? String)?.count == 36)

        let passphrase = try sandbox.writeSecret("other", "not the key")
        let wrong = try await sandbox.run(["decrypt", "--passphrase-file", passphrase, file])
        #expect(wrong.status == 3)
        #expect(!wrong.error.contains("not the key"))
    }

    /// Every header that no writer produced gets the one error and exit 3,
    /// at once: the rounds are checked before PBKDF2 runs. (That no key
    /// is derived is counted in EncryptedFileTests; here, a reader that
    /// ran 0xFFFFFFFF rounds would be stopped by the watchdog, hours
    /// early, and not exit with 3.)
    @Test func malformedExportHeadersExitWith3Quickly() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        let passphrase = try sandbox.writeSecret("pass", "export secret")
        let export = sandbox.root.appendingPathComponent("players.json").path
        await #expect(try sandbox.run(["export", "--format", "json", "--to-passphrase-file", passphrase, export]).status == 0)
        let sealed = try Data(contentsOf: URL(fileURLWithPath: export))
        func withRounds(_ rounds: UInt32) -> Data {
            var file = sealed
            file.replaceSubrange(9..<13, with: [UInt8(rounds >> 24), UInt8(rounds >> 16 & 0xFF), UInt8(rounds >> 8 & 0xFF), UInt8(rounds & 0xFF)])
            return file
        }
        let before = sandbox.databaseSnapshot()
        let malformed = [("rounds-0", withRounds(0)), ("rounds-max", withRounds(.max)),
                         ("truncated", sealed.prefix(20)), ("magic", Data("XDBENC01".utf8) + sealed.dropFirst(8))]
        for (name, bytes) in malformed {
            let path = sandbox.root.appendingPathComponent("\(name).json").path
            try bytes.write(to: URL(fileURLWithPath: path))
            let result = try await onThread {
                let process = try sandbox.makeProcess(["decrypt", "--passphrase-file", passphrase, path])
                // A reader that trusted 0xFFFFFFFF rounds would run for hours:
                // a hang guard, far above any loaded machine's start-up.
                let watchdog = DispatchWorkItem { process.terminate() }
                DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
                defer { watchdog.cancel() }
                return try TestSupport.runBlocking(process)
            }
            #expect(result.status == 3, "\(name)")
            #expect(result.error == "players: cannot decrypt \(path): the key is wrong, or the file is not an encrypted players export, or it was modified: give the key it was exported with\n", "\(name)")
        }
        #expect(sandbox.databaseSnapshot() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: export)) == sealed)
    }

    @Test func plaintextJSONNeedsTheFlagAndParses() async throws {
        let sandbox = try CLISandbox()
        let passphrase = try sandbox.writeSecret("pass", "db secret")
        await #expect(try sandbox.run(["init", "--passphrase-file", passphrase]).status == 0)
        await #expect(try sandbox.run(["randomize", "--passphrase-file", passphrase]).status == 0)
        let file = sandbox.root.appendingPathComponent("plain.json").path
        let export = try await sandbox.run(["export", "--format", "json", "--plaintext", "--passphrase-file", passphrase, file])
        #expect(export.status == 0)
        #expect(export.error.contains("NOT encrypted"))
        let payload = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        #expect((payload?["players"] as? [Any])?.count == 8)
        #expect(payload?["tombstones"] as? [Any] != nil)
        // Encrypted with the database's passphrase by default: it decrypts with it.
        let encrypted = sandbox.root.appendingPathComponent("encrypted.json").path
        await #expect(try sandbox.run(["export", "--format", "json", "--passphrase-file", passphrase, encrypted]).status == 0)
        await #expect(try sandbox.run(["decrypt", "--passphrase-file", passphrase, encrypted]).status == 0)
    }
}
