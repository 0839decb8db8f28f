import AppCommandLine
import ArgumentParser
import CipherDB
import CipherSync
import CommandLineBase
import Foundation
import Players
import PlayersSync
import SyncEngine

extension PlayersCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push the local changes to a server, then merge the server's players into the database.",
            discussion: """
                First pushes the changes made here since the last sync (URL/v1/sync/changes), in order \
                and exactly once: a change to a player that changed on the server since loses, \
                the server's value is kept, and the local value goes to 'players conflicts'. Then \
                fetches the changes since the last sync (or a snapshot the first time, with --full, \
                or when the server no longer knows the last cursor) from URL/v1/sync/rows, checks the \
                whole answer, and merges it in one transaction. Any failure leaves the database \
                consistent, and the next sync finishes the job (exit code 5 for a network or \
                server failure). The token comes from --token-file or PLAYERS_TOKEN. With --watch, \
                it then keeps a long-poll open and pushes and merges each change as it comes, one \
                line each, until Ctrl-C or SIGTERM (exit 0). See 'players docs sync'.
                """)

        @OptionGroup var options: DatabaseOptions

        @Option(help: ArgumentHelp(
            "The server's base URL (default: the one 'players remote set' stored).", valueName: "url"))
        var url: String?

        @Option(help: ArgumentHelp("A file holding the bearer token (mode 0600; default: $PLAYERS_TOKEN).", valueName: "file"))
        var tokenFile: String?

        @Option(help: ArgumentHelp("A PEM file of certificate authorities to trust for https.", valueName: "file"))
        var cacert: String?

        // Like curl's --max-time: one bound for the whole command's network
        // part. --deadline is its older name.
        @Option(name: [.customLong("timeout"), .customLong("deadline")], help: ArgumentHelp(
            "The longest the sync may spend on the network, in seconds (up to 86400): connecting, pushing, every page, "
                + "retries and their waits; the local merge is not counted.", valueName: "seconds"))
        var timeout: Double = 600

        @Option(help: ArgumentHelp("The most the pages of one sync may hold together, in MiB (1 to 65536).", valueName: "mib"))
        var maxSize: Int = 256

        @Flag(help: "Take a snapshot even if the database has a cursor.")
        var full = false

        @Flag(help: ArgumentHelp(
            "Sync with a server that holds another database than the one this database synced with: push the local changes there, then replace the synced players by its snapshot."))
        var allowOtherServer = false

        @Flag(help: "Report what would be pushed and merged, sending no change and writing nothing.")
        var dryRun = false

        @Flag(name: [.long, .customShort("j")], help: "Print the report as a JSON object (with --watch, one line per merge: JSON Lines).")
        var json = false

        @Flag(help: "After the sync, keep watching the server: push and merge each change as it comes, until Ctrl-C.")
        var watch = false

        @Flag(name: [.long, .customShort("q")], help: "Print no progress and no retry notice.")
        var quiet = false

        func validate() throws {
            if let url { _ = try RemoteURL.parse(url) }
            guard timeout > 0, timeout <= 86_400 else {
                throw ValidationError("--timeout must be a number of seconds, more than 0 and at most 86400.")
            }
            guard (1...65_536).contains(maxSize) else {
                throw ValidationError("--max-size must be a whole number of MiB from 1 to 65536.")
            }
            if watch && dryRun {
                throw ValidationError("--watch merges every change it sees: it cannot be combined with --dry-run.")
            }
            if let cacert, !FileManager.default.isReadableFile(atPath: cacert) {
                throw ValidationError("Cannot read the --cacert file \(cacert).")
            }
        }

        func run() async throws {
            // Before the database is opened: a bad token file leaves it untouched.
            let token = try token()
            let (appDatabase, _) = try options.openDatabase()
            defer { try? appDatabase.close() }
            let baseURL: URL
            if let url {
                baseURL = try RemoteURL.parse(url)
            } else if let stored = try Self.catching({ try appDatabase.remoteURL() }) {
                baseURL = stored
            } else {
                throw CLIError.usage("no server to sync from: give --url, or run 'players remote set URL' once")
            }

            let progress = SyncProgress(quiet: quiet || json, dryRun: dryRun)
            var configuration = TransportConfiguration()
            // While watching, each long-poll's wait comes before these
            // limits (SyncClient.waitSeconds). The deadline (maximumDuration) ends the sync. A transfer's own
            // limit only backs it up: as long as the deadline, it could fire
            // first on a loaded machine, and its failure be retried.
            configuration.timeout = timeout + 5
            configuration.connectTimeout = min(10, timeout)
            configuration.caCertificatePath = cacert
            configuration.bearerToken = token
            if watch, let tokenFile {
                // A token renewed while watching (its long-poll ended with
                // 401 as it expired) is read before the next request.
                configuration.bearerTokenSource = { try SecretFiles.readToken(tokenFile) }
            }
            configuration.userAgent = "players/\(CipherSyncVersion.string)"
            configuration.progress = { received, _ in progress.received(received) }
            let quiet = quiet
            // While watching, the loop retries, with its own back-off.
            let transport: any HTTPTransport = watch
                ? CurlTransport(configuration: configuration)
                : RetryingTransport(CurlTransport(configuration: configuration)) { event in
                    if !quiet { Terminal.printError("players: \(event)") }
                }
            var client = appDatabase.syncClient(
                baseURL: baseURL, transport: transport, beforeCommit: Self.testPauseHook(), mergeProgress: progress.merged)
            client.maximumDuration = timeout
            client.allowsOtherServer = allowOtherServer
            client.maximumBytes = maxSize * 1_048_576
            client.onPage = { pages, bytes in progress.staged(pages: pages, bytes: bytes) }
            let report: PlayersSyncReport
            let (syncClient, full, dryRun) = (client, full, dryRun)
            // Ctrl-C or SIGTERM abandons the sync as a failure does: its
            // staging emptied, a merge under way finished or rolled
            // back whole.
            switch await InterruptibleOperation.run({
                try await progress.whileSyncing { try await syncClient.syncPlayers(full: full, dryRun: dryRun) }
            }) {
            case (.success(let synced), _):
                report = synced
            case (.failure, let signal?):
                throw CLIError.interrupted(by: signal, "interrupted: the sync was abandoned and nothing was merged; "
                    + "the next 'players sync' takes it up")
            case (.failure(let error), nil):
                throw CLIError.from(error).redacting(token)
            }
            if watch {
                printWatched(report, baseURL: baseURL)
                client.allowsOtherServer = false
                try await watchChanges(client, baseURL: baseURL, token: token)
            } else if json {
                print(try JSONOutput.string(report))
            } else {
                for note in report.notes { Terminal.printLine(note) }
                Terminal.printLine("\(dryRun ? "Checked" : "Synced with") \(baseURL.absoluteString): \(report).")
            }
        }

        /// The bearer token, from --token-file or PLAYERS_TOKEN.
        func token() throws -> String? {
            if let tokenFile {
                return try Self.catching { try SecretFiles.readToken(tokenFile) }
            }
            if let token = options.environment["PLAYERS_TOKEN"], !token.isEmpty { return token }
            return nil
        }

        /// For the crash-safety tests only, in debug builds (the tests'):
        /// with `PLAYERS_TEST_PAUSE_IN_SYNC_MERGE=PATH`, the merge creates
        /// PATH and waits inside its open transaction, so that a test can
        /// kill the process there. Release builds have no such hook.
        static func testPauseHook() -> (@Sendable (Database) throws -> Void)? {
            #if !DEBUG
            return nil
            #else
            guard let path = ProcessInfo.processInfo.environment["PLAYERS_TEST_PAUSE_IN_SYNC_MERGE"], !path.isEmpty else {
                return nil
            }
            return { _ in
                _ = FileManager.default.createFile(atPath: path, contents: Data())
                Thread.sleep(forTimeInterval: 60)
            }
            #endif
        }

        static func catching<T>(_ body: () throws -> T) throws -> T {
            do { return try body() } catch { throw CLIError.from(error) }
        }
    }
}
