import CipherDB
import CipherSync
import Foundation
import Players

extension AppDatabase {
    /// The players endpoint of a server: its base URL followed by
    /// `/v1/players`.
    public static func playersEndpoint(baseURL: URL) -> URL {
        endpoint(baseURL: baseURL, path: "v1/players")
    }

    /// The changes endpoint of a server: its base URL followed by
    /// `/v1/changes`.
    public static func changesEndpoint(baseURL: URL) -> URL {
        endpoint(baseURL: baseURL, path: "v1/changes")
    }

    private static func endpoint(baseURL: URL, path: String) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/" + path) ?? baseURL.appendingPathComponent(path)
    }

    /// A client that syncs this database from the server at `baseURL`,
    /// staging its pages in a private folder made inside
    /// `stagingDirectory` (default: the system's temporary folder);
    /// `mergeProgress` follows each merge.
    public func syncClient(
        baseURL: URL,
        transport: any HTTPTransport,
        stagingDirectory: URL? = nil,
        beforeCommit: (@Sendable (Database) throws -> Void)? = nil,
        mergeProgress: SyncMergeProgress? = nil) -> SyncClient<PlayersSyncStore>
    {
        SyncClient(transport: transport, endpoint: Self.playersEndpoint(baseURL: baseURL),
                   store: PlayersSyncStore(self, stagingDirectory: stagingDirectory, beforeCommit: beforeCommit,
                                           mergeProgress: mergeProgress))
    }
}
