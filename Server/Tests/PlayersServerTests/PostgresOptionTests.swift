import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// `--postgres`, `PLAYERS_SERVER_POSTGRES_URL` and `PGPASSWORD`: the
/// password never in argv nor in a message, and a database that cannot be
/// used refused at start in one sentence.
@Suite struct PostgresOptionTests {
    /// The test cluster's URL (or `url`), and the same without its password.
    func clusterURLs(_ url: String? = nil) throws -> (withPassword: String, password: String, withoutPassword: String) {
        let url = try url ?? StoreSandbox.postgresURLString()
        let components = try #require(URLComponents(string: url))
        let password = try #require(components.password)
        var bare = components
        bare.password = nil
        return (url, password, try #require(bare.string))
    }

    @Test func aPasswordInTheArgumentIsAUsageErrorThatDoesNotRepeatIt() async throws {
        let (url, password, _) = try clusterURLs()
        let result = try await ServerProcess.run(["--postgres", url], in: try TemporaryFolder())
        #expect(result.status == 2)
        #expect(result.error.contains("--postgres must not hold a password"))
        #expect(result.error.contains("PLAYERS_SERVER_POSTGRES_URL"))
        #expect(!(result.error + result.output).contains(password))
    }

    @Test(arguments: [
        (["--postgres", "postgres://players@127.0.0.1/players", "--database", "server.db"], "give --database or --postgres, not both"),
        (["--postgres", "postgres://players@127.0.0.1/players", "--key-file", "key"], "--key-file and --passphrase-file are for an encrypted --database"),
        (["--postgres", "mysql://players@127.0.0.1/players"], "--postgres: the PostgreSQL URL is not of the form"),
        (["--postgres", "postgres://players@127.0.0.1/players?sslmode=verify_full"], "sslmode is not one of"),
    ])
    func contradictoryOrMalformedOptionsAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let folder = try TemporaryFolder()
        let result = try await ServerProcess.run(arguments, in: folder)
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.contains(message), "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// On a database of its own: servers that migrate the cluster's own
    /// database beside the stores of other tests made them wait.
    @Test func theURLAndThePasswordFromTheEnvironmentServe() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let (url, password, bare) = try clusterURLs(try sandbox.postgresURLString())
            for environment in [["PLAYERS_SERVER_POSTGRES_URL": url], ["PLAYERS_SERVER_POSTGRES_URL": bare, "PGPASSWORD": password]] {
                let server = try ServerProcess(["--seed", "3"], environment: environment)
                #expect(try server.request("GET", "/v1/sync/rows").status == 200)
                #expect(try server.stop() == 0)
            }
            let server = try ServerProcess(["--postgres", bare], environment: ["PGPASSWORD": password])
            #expect(try server.request("GET", "/v1/sync/rows").body.contains(#""kind":"snapshot""#))
            #expect(try server.stop() == 0)
        }
    }

    /// At once: refused, not after the connect timeout.
    @Test func anUnreachableServerIsReportedAtOnce() async throws {
        let result = try await ServerProcess.run(["--postgres", "postgres://players@127.0.0.1:1/players"], in: try TemporaryFolder())
        #expect(result.status == 1)
        #expect(result.error.contains("cannot connect to PostgreSQL at 127.0.0.1:1: connection refused."), "\(result.error)")
    }

    @Test func aWrongPasswordOrNoneIsReportedWithoutThePassword() async throws {
        let (_, _, bare) = try clusterURLs()
        let wrong = try await ServerProcess.run(["--postgres", bare], environment: ["PGPASSWORD": "not-the-password"], in: try TemporaryFolder())
        #expect(wrong.status == 1)
        #expect(wrong.error.contains(#"refused the connection: password authentication failed for user "players""#), "\(wrong.error)")
        #expect(!wrong.error.contains("not-the-password"))
        let none = try await ServerProcess.run(["--postgres", bare], in: try TemporaryFolder())
        #expect(none.status == 1)
        #expect(none.error.contains("asks for a password and none is given: put it in PLAYERS_SERVER_POSTGRES_URL or PGPASSWORD."), "\(none.error)")
    }
}
