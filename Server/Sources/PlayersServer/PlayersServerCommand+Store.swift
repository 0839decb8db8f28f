import AppFiles
import ArgumentParser
import CipherDB
import Foundation
import Logging
import PlayersOnServer
import PlayersShared
import PostgresClient
import SyncSchema
import SyncServer
import SyncServerEmbedded
import SyncServerPostgres

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

    /// The tables the server serves: exactly those of `--schema`, read
    /// and checked; without it, Players' (`PlayersSchema`). Throws one
    /// sentence naming the file for a file that cannot be read, is not a
    /// valid declaration, or declares a table that another file declares
    /// too.
    func servedSchema() throws -> SyncSchema {
        guard !schema.isEmpty else { return PlayersSchema.schema }
        var tables: [SyncTable] = []
        var declaredIn: [String: String] = [:]
        for path in schema {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw ServerFailure("cannot read the declaration \(path): \((error as NSError).localizedDescription)")
            }
            let declaration: SyncSchema
            do {
                declaration = try SyncSchema(json: data)
            } catch {
                throw ServerFailure("\(path): \(error)")
            }
            for table in declaration.tables {
                if let other = declaredIn[table.name] {
                    throw ServerFailure("\(path) declares the table \(table.name), which \(other) declares too: give each table once")
                }
                declaredIn[table.name] = path
                tables.append(table)
            }
        }
        do {
            return try SyncSchema(tables: tables)
        } catch {
            throw ServerFailure("the declarations of --schema do not hold together: \(error)")
        }
    }

    /// The sync engine's store of `schema`'s tables: PostgreSQL, an
    /// encrypted file, or memory. Players kept in the tables of an earlier
    /// release are taken in when it opens (``PlayersServerAdoption``).
    func makeStore(_ schema: SyncSchema, logger: Logger) async throws -> any SyncRowStore {
        if let url = try postgresURL() {
            return try await PostgresSyncStore(url: url, schema: schema, adopting: PlayersServerAdoption.postgres, logger: logger)
        }
        guard let database else {
            return EmbeddedSyncStore(try ServerSyncDatabase(try DatabaseQueue(), schema: schema))
        }
        return EmbeddedSyncStore(try ServerDatabaseFile.open(atPath: database, key: try key.keySource(), schema: schema))
    }
}
