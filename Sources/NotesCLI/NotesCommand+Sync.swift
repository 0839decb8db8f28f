import AppFiles
import ArgumentParser
import CipherSync
import Foundation
import Notes

extension NotesCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push the local changes to a server, then pull its changes.",
            discussion: "The server is a players-server started with --schema FILE, FILE being what 'notes schema' prints.")

        @OptionGroup var options: NotesOptions
        @Option(help: ArgumentHelp("The server, such as http://127.0.0.1:8080.", valueName: "url")) var url: String
        @Option(help: ArgumentHelp("The server's bearer token (mode 0600).", valueName: "file"), completion: .file())
        var tokenFile: String?

        func validate() throws {
            guard let url = URL(string: url), ["http", "https"].contains(url.scheme), url.host != nil, url.user == nil,
                  url.password == nil, url.query == nil else {
                throw ValidationError("--url must be an http or https URL without credentials or query, such as http://127.0.0.1:8080.")
            }
        }

        func run() async throws {
            let notes = try options.open()
            var configuration = TransportConfiguration()
            configuration.bearerToken = try tokenFile.map(SecretFiles.readToken)
            configuration.userAgent = "notes/\(CipherSyncVersion.string)"
            let transport = RetryingTransport(CurlTransport(configuration: configuration)) { _ in }
            let (pushed, pulled) = try await notes.sync(baseURL: URL(string: url)!, transport: transport)
            if pulled.historyChange == .wentBack {
                print("The server was restored from a backup: \(pulled.requeued) rows it lost were kept "
                      + "(pushed again, or in 'notes conflicts').")
            }
            print("Pushed: \(pushed.applied) applied, \(pushed.conflicts) in conflict (kept: 'notes conflicts').")
            print("Pulled: \(pulled).")
        }
    }
}
