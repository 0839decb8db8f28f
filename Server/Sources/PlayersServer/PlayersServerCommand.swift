import AppFiles
import ArgumentParser
import CipherDB
import Foundation
import Hummingbird
import Logging
import SyncServerHTTP
import PlayersOnServer
import ServiceLifecycle
import SyncServer
import SyncServerAuth

/// `players-server serve` (the default): the JSON endpoint that clients
/// sync from.
struct PlayersServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the players sync endpoint (the default command).",
        discussion: """
            It syncs Players' table, or with --schema exactly the tables that the declarations declare \
            (Docs/SyncEngine.md). \
            The rows are stored in an encrypted database (--database, with --key-file, \
            --passphrase-file or PLAYERS_PASSPHRASE, as for 'players'), in a PostgreSQL \
            database shared by several instances (--postgres or PLAYERS_SERVER_POSTGRES_URL), \
            or in memory when neither is given. \
            Without --token-file or --auth jwt, the server listens on loopback only, unless --insecure-no-auth. \
            With --auth jwt, every request carries its user's signed token, and each table's access in the declaration \
            (format 2) says what the user may do: a table without one stops the server. \
            SIGINT and SIGTERM stop it after the requests in progress (and --drain-time), with its database closed.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose a free one (printed at start).")
    var port = 8080

    @Option(help: ArgumentHelp("Another name the server answers to in the Host header, such as its public name behind a proxy (repeatable).", valueName: "name"))
    var allowedHost: [String] = []

    @Option(help: ArgumentHelp("The encrypted database (default: in memory).", valueName: "path"))
    var database: String?

    @OptionGroup var key: ServerKeyOptions

    @Option(help: ArgumentHelp(
        "A PostgreSQL database for the players, shared by several instances: postgres://user@host:port/database[?sslmode=…]. Without its password: that goes in PGPASSWORD, or the whole URL in PLAYERS_SERVER_POSTGRES_URL.",
        valueName: "url"))
    var postgres: String?

    @Option(help: ArgumentHelp(
        "A declaration of the tables to sync instead of Players' alone, as an app's 'schema' command prints it (repeatable: several apps' tables, Players' from 'players schema').",
        valueName: "file"))
    var schema: [String] = []

    @Option(help: ArgumentHelp("The bearer token that every /v1 request must carry (mode 0600).", valueName: "file"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("How requests are authenticated: token (one shared token, --token-file) or jwt (each user's signed token, --jwt-key-file).", valueName: "mode"))
    var auth: ServerAuthMode = .token

    @OptionGroup var jwt: JWTOptions

    @Option(help: "Insert this many random players when the database has none (0 to 1000000; Players' table must be served).")
    var seed: Int?

    @Option(help: "How long deleted players are remembered, such as 30d, 12h, 90m (1s to 36500d; default: 30d).")
    var tombstoneRetention = "30d"

    @Option(help: "How long a connection may stay idle before it is closed (1s to 1h; default: 60s).")
    var idleTimeout = "60s"

    @Option(help: "How long a request may take to arrive, headers to body, before its connection is closed (1s to 1h; default: 30s).")
    var readTimeout = "30s"

    @Option(help: "How long a new connection may take to send its first request's headers before it is closed (1s to 1h; default: 10s).")
    var headerTimeout = "10s"

    @Option(help: "The most connections open at once (1 to 100000; default: 256); at the limit the connection idle for longest is closed to make room, and only when every one has a request in progress (each long-poll holds one) do more wait to be accepted.")
    var maxConnections = 256

    @Option(help: "After SIGTERM or SIGINT, how long to go on serving with GET /ready answering 503, so that load balancers stop sending, before the server stops accepting connections (0s to 5m; default: 0s).")
    var drainTime = "0s"

    @Option(help: ArgumentHelp("The least important messages logged: trace, debug, info, notice, warning, error or critical (default: info, or PLAYERS_SERVER_LOG_LEVEL).", valueName: "level"))
    var logLevel: Logger.Level?

    @Option(help: ArgumentHelp("How the log is written on standard error: text, or json for one object a line (default: text, or PLAYERS_SERVER_LOG_FORMAT).", valueName: "format"))
    var logFormat: LogFormat?

    @Flag(help: "Serve POST /demo/refresh, random changes of the players for the demo (Players' table must be served).")
    var demo = false

    @Flag(help: "Listen on a non-loopback address without a token.")
    var insecureNoAuth = false

    func validate() throws {
        if host.isEmpty || allowedHost.contains(where: \.isEmpty) { throw ValidationError("--host and --allowed-host need a name or an address.") }
        try validateStoreOptions()
        if database != nil && !key.isGiven {
            throw ValidationError("An encrypted --database needs --key-file, --passphrase-file or PLAYERS_PASSPHRASE.")
        }
        switch auth {
        case .jwt:
            if tokenFile != nil { throw ValidationError("--auth jwt verifies each user's token: leave out --token-file.") }
            if jwt.jwtKeyFile == nil { throw ValidationError("--auth jwt needs --jwt-key-file.") }
        case .token:
            if jwt.isGiven { throw ValidationError("--jwt-key-file, --jwt-audience and --jwt-issuer go with --auth jwt.") }
        }
        if auth == .token, tokenFile == nil, !insecureNoAuth, !["127.0.0.1", "::1", "localhost"].contains(host) {
            throw ValidationError("Without --token-file or --auth jwt, listen on loopback only, or add --insecure-no-auth.")
        }
        try Self.checkDuration(tombstoneRetention, option: "--tombstone-retention", in: 1...36_500 * 86_400, "1s to 36500d, such as 30d")
        try Self.checkDuration(idleTimeout, option: "--idle-timeout", in: 1...3600, "1s to 1h, such as 60s")
        try Self.checkDuration(readTimeout, option: "--read-timeout", in: 1...3600, "1s to 1h, such as 30s")
        try Self.checkDuration(headerTimeout, option: "--header-timeout", in: 1...3600, "1s to 1h, such as 10s")
        try Self.checkDuration(drainTime, option: "--drain-time", in: 0...300, "0s to 5m, such as 10s")
        if let seed, !(0...1_000_000).contains(seed) { throw ValidationError("--seed must be from 0 to 1000000.") }
        if !(0...65_535).contains(port) { throw ValidationError("--port must be from 0 to 65535.") }
        if !(1...100_000).contains(maxConnections) { throw ValidationError("--max-connections must be from 1 to 100000.") }
        _ = try logSettings()
    }

    /// Refuses a duration that does not parse or is out of `range` (NaN
    /// and infinities included): converting it later must not trap.
    static func checkDuration(_ text: String, option: String, in range: ClosedRange<TimeInterval>, _ rangeText: String) throws {
        guard let seconds = duration(text), range.contains(seconds) else {
            throw ValidationError("\(option) must be a number followed by d, h, m or s, from \(rangeText).")
        }
    }

    /// `30d`, `12h`, `90m`, `45s` in seconds.
    static func duration(_ text: String) -> TimeInterval? {
        guard let unit = text.last, let value = Double(text.dropLast()), value >= 0 else { return nil }
        switch unit {
        case "d": return value * 86_400
        case "h": return value * 3600
        case "m": return value * 60
        case "s": return value
        default: return nil
        }
    }

    func run() async throws {
        let logger = try startLogging()

        var serverConfiguration = ServerConfiguration()
        serverConfiguration.host = host
        serverConfiguration.port = port
        serverConfiguration.allowedHosts = allowedHost
        serverConfiguration.tombstoneRetention = Self.duration(tombstoneRetention)!
        serverConfiguration.idleTimeout = Self.duration(idleTimeout)!
        serverConfiguration.readTimeout = Self.duration(readTimeout)!
        serverConfiguration.headerTimeout = Self.duration(headerTimeout)!
        serverConfiguration.maximumConnections = maxConnections
        serverConfiguration.servesDemoRefresh = demo
        if let tokenFile {
            serverConfiguration.token = try SecretFiles.readToken(tokenFile)
        }

        let served = try servedSchema()
        let endToEnd = served.tables.filter(\.isEndToEnd).map(\.name)
        guard endToEnd.isEmpty || auth == .jwt else {
            throw ServerFailure("the end-to-end \(endToEnd.count == 1 ? "table" : "tables") \(endToEnd.joined(separator: ", ")) "
                + "\(endToEnd.count == 1 ? "needs --auth jwt: its" : "need --auth jwt: their") rows are sealed under the keys of users and groups")
        }
        if auth == .jwt {
            // Access is denied by default: no table is served without its rule.
            let unruled = served.tablesWithoutAccess
            guard unruled.isEmpty else {
                throw ServerFailure("with --auth jwt, every table needs its access in the declaration (format 2), and "
                    + "\(unruled.joined(separator: ", ")) \(unruled.count == 1 ? "has" : "have") none: add one, such as "
                    + "\"access\": {\"rule\": \"shared\", \"writers\": [\"editor\"]} (Docs/Server.md, \"Users\")")
            }
            serverConfiguration.tokenVerifier = TokenVerifier(
                keys: try await jwt.keys(), configuration: .init(audience: jwt.jwtAudience, issuer: jwt.jwtIssuer))
        }
        if (seed != nil || demo) && !PlayersDemo.serves(served) {
            throw ServerFailure("--seed and --demo write players, and the declarations of --schema have no player table: "
                + "give Players' declaration too (players schema > players.json; --schema players.json)")
        }
        // An end-to-end table is stored and validated as its server view:
        // its routing columns and one sealed value.
        let store = try await makeStore(served.serverView, logger: logger)
        do {
            try await serve(store, configuration: serverConfiguration, logger: logger)
        } catch {
            try? await store.close()
            throw listeningFailure(error) ?? error
        }
        // Then the WAL goes into the database file: a copy of the file
        // alone is a complete backup.
        try await store.close()
    }

    /// Seeds the players if asked, then serves the store until SIGINT or
    /// SIGTERM.
    private func serve(_ store: any SyncRowStore, configuration serverConfiguration: ServerConfiguration, logger: Logger) async throws {
        if let seed, let demo = PlayersDemo(store) { try await seedShowingProgress(demo, count: seed) }
        try await store.purgeTombstones(olderThan: serverConfiguration.tombstoneRetention, now: Date())

        let keyReload = await KeyReloadOnHangUp(verifier: serverConfiguration.tokenVerifier, logger: logger)
        let api = SyncServerAPI(engine: store, configuration: serverConfiguration)
        let printedHost = host.contains(":") ? "[\(host)]" : host
        let app = Application(
            router: api.makeRouter(),
            server: api.server,
            configuration: api.applicationConfiguration,
            onServerRunning: { channel in
                // One line on standard output, for scripts that start the
                // server on port 0 and need the port it got.
                let line = "players-server listening on http://\(printedHost):\(channel.localAddress?.port ?? 0)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: logger)
        // On SIGINT and SIGTERM, the group shuts its services down in
        // reverse order: first /ready answers 503 for --drain-time, then
        // the long-polls are released (each answers at once), then the
        // server stops accepting, finishes the requests in progress, and
        // the group returns.
        try await ServiceGroup(configuration: .init(
            services: [
                app,
                keyReload,
                LongPollRelease([store.changes], logger: logger),
                DrainingService(readiness: api.readiness, delay: .seconds(Self.duration(drainTime)!)),
            ],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)).run()
    }
}
