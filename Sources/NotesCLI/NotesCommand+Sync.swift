import AppCommandLine
import AppFiles
import ArgumentParser
import CipherSync
import CommandLineBase
import Foundation
import Notes
import SyncSchema
import TerminalText

extension NotesCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push the local changes to a server, then pull its changes.",
            discussion: """
                The server is a players-server started with --schema FILE, FILE being what 'notes schema' prints. \
                With --watch, keeps watching afterwards: pushes and merges each change as it comes, until Ctrl-C or SIGTERM.
                """)

        @OptionGroup var options: NotesOptions
        @Option(help: ArgumentHelp("The server, such as http://127.0.0.1:8080.", valueName: "url")) var url: String
        @Option(help: ArgumentHelp("The server's bearer token (mode 0600).", valueName: "file"), completion: .file())
        var tokenFile: String?
        @Flag(help: ArgumentHelp(
            "Sync with a server that holds another database than the one this database synced with: push the local changes there, then replace the synced rows by its snapshot."))
        var allowOtherServer = false
        @Flag(help: "After the sync, keep watching the server: push and merge each change as it comes, until Ctrl-C.")
        var watch = false
        @Flag(help: "Print the sync's report as one JSON object, the rows it refused and its keys included.")
        var json = false

        func validate() throws {
            guard !(json && watch) else { throw ValidationError("--json reports one sync: it cannot be combined with --watch.") }
            try validateURL()
        }

        func validateURL() throws {
            guard let url = URL(string: url), ["http", "https"].contains(url.scheme), url.host != nil, url.user == nil,
                  url.password == nil, url.query == nil else {
                throw ValidationError("--url must be an http or https URL without credentials or query, such as http://127.0.0.1:8080.")
            }
        }

        func run() async throws {
            // Before the database is opened: a bad token file leaves it untouched.
            let token = try tokenFile.map(SecretFiles.readToken)
            let notes = try options.open()
            let baseURL = URL(string: url)!
            var configuration = TransportConfiguration()
            configuration.bearerToken = token
            configuration.userAgent = "notes/\(CipherSyncVersion.string)"
            let transport = RetryingTransport(CurlTransport(configuration: configuration)) { _ in }
            // Ctrl-C or SIGTERM abandons the sync as a failure does: its
            // staging emptied, a merge under way finished or rolled back
            // whole.
            let allowOtherServer = allowOtherServer
            switch await InterruptibleOperation.run({
                try await notes.sync(baseURL: baseURL, transport: transport, allowsOtherServer: allowOtherServer)
            }) {
            case (.success(let synced), _):
                if json {
                    Self.printLineNow(String(decoding: try NotesSyncJSON(synced).encoded(), as: UTF8.self))
                } else {
                    Self.printSync(synced)
                }
            case (.failure, let signal?):
                throw CLIError.interrupted(by: signal, "interrupted: the sync was abandoned and nothing was merged; "
                    + "the next 'notes sync' takes it up")
            case (.failure(let error), nil):
                // A server may echo the token in its message: never print it.
                throw CLIError.from(error).redacting(token)
            }
            guard watch else { return }
            // While watching, the replicator retries, with its own back-off;
            // a local change, of this process or another, is pushed at once.
            if let tokenFile {
                // A token renewed while watching (its long-poll ended with
                // 401 as it expired) is read before the next request.
                configuration.bearerTokenSource = { try SecretFiles.readToken(tokenFile) }
            }
            let client = notes.syncClient(baseURL: baseURL, transport: CurlTransport(configuration: configuration))
            let replicator = SyncReplicator(client: client)
            try await SyncWatch.run(
                replicator, tokens: SyncWatch.tokens(read: token, from: tokenFile), describe: CLIError.from,
                onSync: { synced in
                    // A refusal is printed as it happens, as a change is.
                    let refused = !synced.refusedRows.isEmpty || !synced.keys.refusedKeys.isEmpty
                    if synced.push.counts.applied + synced.push.counts.conflicts > 0 || synced.pull.movedRows || refused {
                        Self.printSync(synced)
                    }
                },
                notice: { line in NotesCommand.printError("notes: \(line)") })
            Self.printLineNow("Stopped watching \(baseURL.absoluteString).")
        }

        /// The lines of one sync, written at once (a watcher's output is
        /// read as it comes), control characters escaped (the cursor is the
        /// server's text).
        static func printSync(_ synced: SyncPushPullReport) {
            let (pushed, pulled) = (synced.push.counts, synced.pull)
            if pulled.historyChange == .wentBack {
                printLineNow("The server was restored from a backup: \(pulled.requeued) rows it lost were kept "
                             + "(pushed again, or in 'notes conflicts').")
            }
            if let repaired = pulled.repaired {
                printLineNow("The synced rows differed from the server's (\(repaired)): a snapshot repaired them.")
            }
            let refused = pushed.refused > 0 ? ", \(pushed.refused) of them refused by the server" : ""
            printLineNow("Pushed: \(pushed.applied) applied, \(pushed.conflicts) in conflict\(refused) (kept: 'notes conflicts').")
            if synced.push.waitingForKeys > 0 {
                printLineNow("Waiting: \(synced.push.waitingForKeys) changes of notebooks shared with you, until their owner's next sync "
                             + "gives this device their key.")
            }
            printLineNow("Pulled: \(pulled).")
            // What the device refused, row by row: kept as they were.
            for row in synced.refusedRows {
                printLineNow("Refused: \(row.message).")
            }
            for key in synced.keys.refusedKeys {
                printLineNow("Refused: \(key).")
            }
            if !synced.keys.withoutIdentity.isEmpty {
                printLineNow("Not shared yet with \(synced.keys.withoutIdentity.joined(separator: ", ")): no identity key published; "
                             + "their first 'notes sync' publishes it, and your next one shares.")
            }
        }

        static func printLineNow(_ line: String) {
            PrintableText.writeLine(line, to: .standardOutput)
        }
    }
}

extension SyncReport {
    /// Whether the pull brought rows or tombstones, found the server's
    /// history changed, or repaired the synced rows: what a watcher prints.
    var movedRows: Bool {
        historyChange != nil || repaired != nil || (!upToDate && inserted + updated + deleted + requeued > 0)
    }
}
