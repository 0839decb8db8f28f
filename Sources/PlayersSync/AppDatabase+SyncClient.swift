import CipherDB
import CipherSync
import Foundation
import Players
import PlayersShared
import SyncEngine

extension AppDatabase {
    /// A client that syncs this database with the server at `baseURL`
    /// through the sync engine (``SyncEngine/SyncEngineStore``, for
    /// ``PlayersShared/PlayersSchema``): it pushes to
    /// `/v1/sync/changes` and pulls `/v1/sync/rows?tables=player`, staging
    /// the pages in the database until one transaction merges them.
    /// `mergeProgress` follows each merge; `beforeCommit` runs inside it,
    /// before its commit (a hook for crash tests).
    ///
    /// ```swift
    /// let report = try await appDatabase.syncClient(baseURL: url, transport: CurlTransport()).syncPlayers()
    /// print(report) // pushed 2, +12 ~3 -1, conflicts 0, cursor 4815
    /// ```
    public func syncClient(
        baseURL: URL,
        transport: any HTTPTransport,
        beforeCommit: (@Sendable (Database) throws -> Void)? = nil,
        mergeProgress: SyncMergeProgress? = nil) -> SyncClient<SyncEngineStore>
    {
        let store = syncStore(beforeCommit: beforeCommit, mergeProgress: mergeProgress)
        return SyncClient(transport: transport, endpoint: store.rowsEndpoint(baseURL: baseURL), store: store)
    }

    /// Where a sync client puts the pages it pulls: this database, through
    /// the sync engine.
    public func syncStore(beforeCommit: (@Sendable (Database) throws -> Void)? = nil,
                          mergeProgress: SyncMergeProgress? = nil) -> SyncEngineStore {
        var store = SyncEngineStore(dbWriter, schema: PlayersSchema.schema)
        store.beforeCommit = beforeCommit
        store.mergeProgress = mergeProgress
        return store
    }

    /// The server's endpoint that a sync pushes the local changes to.
    public static func changesEndpoint(baseURL: URL) -> URL {
        SyncEnginePusher.changesEndpoint(baseURL: baseURL)
    }

    /// The server's endpoint that a sync pulls the players from.
    public static func playersEndpoint(baseURL: URL) -> URL {
        PlayersSchema.schema.rowsEndpoint(baseURL: baseURL)
    }
}

extension SyncClient where Store == SyncEngineStore {
    /// `players sync`: checks the players that changed here against the
    /// players' rules (a change the server would refuse is named, with
    /// what to do, before anything is sent), then pushes the local
    /// changes and pulls the server's (``pushThenPull(full:dryRun:)``).
    /// A dry run sends no change and writes nothing.
    public func syncPlayers(full: Bool = false, dryRun: Bool = false) async throws -> PlayersSyncReport {
        try await store.writer.read(AppDatabase.checkPendingPlayers)
        return PlayersSyncReport(try await pushThenPull(full: full, dryRun: dryRun))
    }
}
