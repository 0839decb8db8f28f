import AppFiles
import ArgumentParser
import CipherSync
import Foundation
import Notes
import PlayersCommandLine
import SyncSchema

extension NotesCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push the local changes to a server, then pull its changes.",
            discussion: """
                The server is a players-server started with --schema FILE, FILE being what 'notes schema' prints. \
                With --watch, keeps watching afterwards: pushes and merges each change as it comes, until Ctrl-C or SIGTERM.
                """)

        /// How long each long-poll of `--watch` asks the server to wait, in
        /// seconds: under the server's limit of 60, and under the idle
        /// timeouts of common proxies (as `players sync --watch`).
        static let watchWait = 50

        @OptionGroup var options: NotesOptions
        @Option(help: ArgumentHelp("The server, such as http://127.0.0.1:8080.", valueName: "url")) var url: String
        @Option(help: ArgumentHelp("The server's bearer token (mode 0600).", valueName: "file"), completion: .file())
        var tokenFile: String?
        @Flag(help: "After the sync, keep watching the server: push and merge each change as it comes, until Ctrl-C.")
        var watch = false

        func validate() throws {
            guard let url = URL(string: url), ["http", "https"].contains(url.scheme), url.host != nil, url.user == nil,
                  url.password == nil, url.query == nil else {
                throw ValidationError("--url must be an http or https URL without credentials or query, such as http://127.0.0.1:8080.")
            }
        }

        func run() async throws {
            let notes = try options.open()
            let baseURL = URL(string: url)!
            var configuration = TransportConfiguration()
            configuration.bearerToken = try tokenFile.map(SecretFiles.readToken)
            configuration.userAgent = "notes/\(CipherSyncVersion.string)"
            let transport = RetryingTransport(CurlTransport(configuration: configuration)) { _ in }
            let (pushed, pulled) = try await notes.sync(baseURL: baseURL, transport: transport)
            Self.printSync(pushed, pulled)
            guard watch else { return }
            // While watching, the loop retries, with its own back-off.
            let watched = CurlTransport(configuration: configuration)
            let watcher = SyncWatcher(
                syncOnce: { try await notes.sync(baseURL: baseURL, transport: watched, waitSeconds: Self.watchWait) },
                onSync: { synced in
                    if synced.pushed.applied + synced.pushed.conflicts > 0 || synced.pulled.movedRows {
                        Self.printSync(synced.pushed, synced.pulled)
                    }
                },
                onNotice: { line in FileHandle.standardError.write(Data((PrintableText.escaping("notes: \(line)") + "\n").utf8)) },
                describe: { error in NotesExit.line(for: error).line })
            let (ended, _) = await InterruptibleOperation.run { await watcher.run() }
            if case .success(let error?) = ended { throw error }
            Self.printLineNow("Stopped watching \(baseURL.absoluteString).")
        }

        /// The lines of one sync, written at once (a watcher's output is
        /// read as it comes), control characters escaped (the cursor is the
        /// server's text).
        static func printSync(_ pushed: SyncPushCounts, _ pulled: SyncReport) {
            if pulled.historyChange == .wentBack {
                printLineNow("The server was restored from a backup: \(pulled.requeued) rows it lost were kept "
                             + "(pushed again, or in 'notes conflicts').")
            }
            printLineNow("Pushed: \(pushed.applied) applied, \(pushed.conflicts) in conflict (kept: 'notes conflicts').")
            printLineNow("Pulled: \(pulled).")
        }

        static func printLineNow(_ line: String) {
            FileHandle.standardOutput.write(Data((PrintableText.escaping(line) + "\n").utf8))
        }
    }
}

extension SyncReport {
    /// Whether the pull brought rows or tombstones, or found the server's
    /// history changed: what a watcher prints.
    var movedRows: Bool {
        historyChange != nil || (!upToDate && inserted + updated + deleted + requeued > 0)
    }
}
