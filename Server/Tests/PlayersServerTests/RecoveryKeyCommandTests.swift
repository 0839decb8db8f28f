import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// `notes init --recovery-key-file F`: the first device writes a new
/// recovery key to F (mode 0600), each other device of the user is made
/// with it, and a device made with another recovery key syncs nothing: the
/// server keeps the user's first identity key.
@Suite struct RecoveryKeyCommandTests {
    @Test(arguments: StoreKind.allCases)
    func aDeviceOfAnotherRecoveryKeyPushesAndPullsNothing(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let users = try await NotesUsersTests.Users.start(sandbox)
            let file = sandbox.folder.path("alice.recovery")
            let laptop = try await users.device("alice-laptop", of: "alice", initArguments: ["--recovery-key-file", "alice.recovery"])
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.hasPrefix("CDBR1-") && text.hasSuffix("\n"))
            _ = try await laptop.add(["notebook", "add", "Work"])
            try await laptop.sync()

            // Another device, of the same file: the same identity.
            let phone = try await users.device("alice-phone", of: "alice", initArguments: ["--recovery-key-file", "alice.recovery"])
            try await phone.sync()
            #expect(try await phone.names().notebooks == ["Work"])
            #expect(try String(contentsOfFile: file, encoding: .utf8) == text, "the file was read, not written")

            // A device of another recovery key: refused before it pushes or pulls.
            let tablet = try await users.device("alice-tablet", of: "alice", initArguments: ["--recovery-key-file", "other.recovery"])
            _ = try await tablet.add(["notebook", "add", "Planted"])
            let refused = try await tablet.process.run(["sync", "--url", users.url, "--token-file", tablet.tokenFile])
            #expect(refused.status == 5, "\(refused.error)")
            #expect(refused.error.contains("this device's recovery key is not theirs"), "\(refused.error)")
            #expect(try await tablet.names().notebooks == ["Planted"], "nothing was pulled")
            try await laptop.sync()
            #expect(try await laptop.names().notebooks == ["Work"], "nothing was pushed")
            #expect(try users.server.stop() == 0)
        }
    }

    @Test func aFileThatIsNotARecoveryKeyMakesNoDatabase() async throws {
        let folder = try TemporaryFolder()
        try Data("CDBR1-NOT-A-KEY\n".utf8).write(to: folder.url("typo.recovery"))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.path("typo.recovery"))
        let device = try NotesDeviceProcess("device", in: folder)
        let result = try await device.run(["init", "--recovery-key-file", "typo.recovery"])
        #expect(result.status == 1)
        #expect(result.error.contains("typo.recovery is not a recovery key: it is not 9 groups of 8 hexadecimal digits"), "\(result.error)")
        #expect(!result.error.contains("NOT-A-KEY"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("device.db")))
    }
}
