import ArgumentParser
import CipherDB
import Foundation
import Logging
import Players
import PlayersServerPostgres
import PlayersServerStore
import PostgresClient

extension PlayersServerCommand {
    /// The environment variable that holds a whole PostgreSQL URL, password
    /// included, out of the process list.
    static let postgresURLVariable = "PLAYERS_SERVER_POSTGRES_URL"

    /// The PostgreSQL database of `--postgres`, else of
    /// `PLAYERS_SERVER_POSTGRES_URL` unless `--database` is given, with the
    /// password of `PGPASSWORD` when the URL has none; nil for the embedded
    /// store.
    func postgresURL(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PostgresURL? {
        let text: String
        if let postgres {
            text = postgres
        } else if database == nil, let variable = environment[Self.postgresURLVariable], !variable.isEmpty {
            text = variable
        } else {
            return nil
        }
        let source = postgres != nil ? "--postgres" : Self.postgresURLVariable
        var url: PostgresURL
        do {
            url = try PostgresURL(text)
        } catch let error as PostgresStoreError {
            throw ValidationError("\(source): \(error.description)")
        }
        if postgres != nil, url.password != nil {
            throw ValidationError(
                "--postgres must not hold a password, which every user of the machine can read in the process list: give the URL in \(Self.postgresURLVariable), or the password in PGPASSWORD.")
        }
        if url.password == nil, let password = environment["PGPASSWORD"], !password.isEmpty {
            url.password = password
        }
        return url
    }

    /// Refuses options that contradict each other about where the players
    /// are kept.
    func validateStoreOptions() throws {
        guard postgres != nil else { return }
        if database != nil { throw ValidationError("Give --database or --postgres, not both.") }
        if key.keyFile != nil || key.passphraseFile != nil {
            throw ValidationError("--key-file and --passphrase-file are for an encrypted --database, not for --postgres.")
        }
        _ = try postgresURL()
    }

    /// The store of the options: PostgreSQL, an encrypted file, or memory.
    func makeStore(logger: Logger) async throws -> any PlayersStore {
        if let url = try postgresURL() {
            return try await PostgresPlayersStore(url: url, logger: logger)
        }
        guard let database else {
            return EmbeddedPlayersStore(try ServerPlayersDatabase(try DatabaseQueue()))
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        try key.keySource().configure(&configuration)
        return EmbeddedPlayersStore(try ServerPlayersDatabase.open(atPath: database, configuration: configuration))
    }
}
