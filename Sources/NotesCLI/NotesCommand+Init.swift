import AppCommandLine
import AppFiles
import ArgumentParser
import Foundation
import Notes
import SyncEngine
import SyncSealing

extension NotesCommand {
    struct Init: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the encrypted notes database.",
            discussion: """
                The device keeps the identity that the user's recovery key gives, which seals and opens the notebooks and notes \
                it syncs (they are end-to-end): a new recovery key is written to --recovery-key-file (mode 0600) when the file \
                does not exist, and the one in it is used when it does. The recovery key never leaves this machine; make each \
                other device of the user with the same file.
                """)

        @OptionGroup var options: NotesOptions
        @Option(help: ArgumentHelp("The user's recovery key (mode 0600): written anew when the file does not exist, read when it does.",
                                   valueName: "file"), completion: .file())
        var recoveryKeyFile: String

        func run() async throws {
            let (path, key) = try options.location()
            // Before the database is made: a bad recovery key file leaves
            // none behind, and an existing database is refused before a
            // new key is written.
            if FileManager.default.fileExists(atPath: path) { throw NotesError.exists(path) }
            let recovery = try Self.recoveryKey(recoveryKeyFile)
            let identity = try recovery.key.identity()
            let notes = try NotesDatabase.create(atPath: path, key: key)
            try notes.keepIdentity(SyncStoredIdentity(publicKey: identity.publicKey.bytes, secretKey: identity.secretKey))
            print("Created the notes database \(path).")
            print(recovery.isNew
                ? "Wrote a new recovery key to \(recoveryKeyFile): keep it safe, and make each other device of yours with it."
                : "Took the identity of the recovery key in \(recoveryKeyFile).")
        }

        /// The recovery key in `file`, or a new one written there.
        static func recoveryKey(_ file: String) throws -> (key: RecoveryKey, isNew: Bool) {
            guard FileManager.default.fileExists(atPath: file) else {
                let key = try RecoveryKey.random()
                try PrivateFile.create(at: URL(fileURLWithPath: file), contents: Data((key.text + "\n").utf8))
                return (key, true)
            }
            let text = String(decoding: try SecretFiles.readSecret(file, kind: "recovery key"), as: UTF8.self)
            do {
                return (try RecoveryKey(text: text), false)
            } catch {
                guard case .invalidRecoveryKey(let reason) = error else { throw error }
                throw CLIError.failure("\(file) is not a recovery key: \(reason); give the file that 'notes init --recovery-key-file' wrote")
            }
        }
    }
}
