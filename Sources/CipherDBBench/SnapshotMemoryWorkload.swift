import CipherDB
import CipherSync
import Foundation
import Notes
import Players
import PlayersSync
import SyncEndToEnd
import SyncEngine

/// The peak resident memory of a sync of a large snapshot into an empty
/// database of an app, raw key: the real client (`SyncClient` and the
/// sync engine's store, staging in the database included) against a
/// server in memory that makes each page of 500 rows when asked
/// (``GeneratedSyncSnapshot``). It runs in a child process (this
/// executable with `--sync-memory`), so that the peak is the sync's alone
/// and not that of the benchmarks before it. The same workload for every
/// app: Players' players, and Notes' notes (in a notebook per thousand),
/// sealed as Notes' end-to-end tables travel.
struct SnapshotMemoryWorkload {
    /// The app whose database syncs the snapshot.
    enum App: String, Codable, Sendable, CaseIterable {
        case players
        case notes

        /// The name `--workload` filters on.
        var workloadName: String {
            switch self {
            case .players: "memory: sync a snapshot"
            case .notes: "memory: sync a notes snapshot"
            }
        }
    }

    let app: App
    let folder: URL
    /// Players, or notes.
    let rowCount: Int

    /// Rows per page: the server's default.
    static let pageSize = 500

    /// What the child reports.
    struct Result: Codable, Sendable {
        var app: App
        /// The players, or the notes, synced.
        var rows: Int
        /// The notes' notebooks (none for the players).
        var notebooks: Int?
        var pages: Int
        /// The bodies of every page together.
        var payloadBytes: Int
        /// The peak before the sync: the process with the database open.
        var residentBeforeSyncBytes: Int
        var peakResidentBytes: Int
        var seconds: Double

        var summary: String {
            let megabytes = { (bytes: Int) in String(format: "%.0f MB", Double(bytes) / 1e6) }
            let snapshot = switch app {
            case .players: "a \(rows)-player snapshot"
            case .notes: "a snapshot of \(rows) notes in \(notebooks ?? 0) notebooks"
            }
            return "sync \(snapshot) in \(pages) pages [raw key]: peak resident memory \(megabytes(peakResidentBytes)),"
                + " for a \(megabytes(payloadBytes)) payload (\(megabytes(residentBeforeSyncBytes)) before the sync);"
                + " \(Harness.format(seconds))"
        }
    }

    /// Runs the child, returns what it measured.
    func run() throws -> Result {
        try JSONDecoder().decode(Result.self, from: MeasuredSync.child([
            "--sync-memory", folder.path, "--sync-memory-app", app.rawValue, app == .players ? "--memory-players" : "--memory-notes", "\(rowCount)",
        ]))
    }

    /// The child: syncs `rowCount` rows of `app` into a new database in
    /// `folder`, checks what it holds, and prints its peak memory as JSON.
    static func measureChild(app: App, folder: URL, rowCount: Int) async throws {
        let baseURL = URL(string: "http://127.0.0.1:8080")!
        let result: Result
        switch app {
        case .players:
            let fixtures = try PlayersFixtures(folder: folder, mode: .rawKey, name: "memory")
            let appDatabase = try AppDatabase(DatabaseQueue(path: fixtures.empty, configuration: fixtures.configuration))
            let transport = GeneratedSyncSnapshot.players(count: rowCount, pageSize: pageSize)
            let sync = try await MeasuredSync.run(appDatabase.syncClient(baseURL: baseURL, transport: transport), rows: rowCount, pageSize: pageSize)
            try SyncWorkloads.check(sync.report.counts, SyncCounts(inserted: rowCount))
            try checkNoRepair(sync)
            result = Result(app: app, rows: sync.report.inserted, notebooks: nil, pages: sync.report.pages, payloadBytes: sync.report.bytesReceived,
                            residentBeforeSyncBytes: sync.residentBeforeSyncBytes, peakResidentBytes: sync.peakResidentBytes, seconds: sync.seconds)
        case .notes:
            let key = Data((0..<32).map { UInt8($0) })
            let database = try NotesDatabase.create(atPath: folder.appendingPathComponent("notes-memory-\(rowCount).db").path, key: .rawKey { key })
            let notebookCount = max(1, rowCount / 1000)
            // Sealed, as Notes syncs them: the device holds every key.
            try BenchNotes.prepareKeys(database.writer, notebooks: (0..<notebookCount).map(GeneratedSyncSnapshot.notebookID))
            let transport = GeneratedSyncSnapshot.notes(noteCount: rowCount, notebookCount: notebookCount, pageSize: pageSize)
            var store = SyncEngineStore(database.writer, schema: NotesSchema.declaration)
            store.endToEnd = SyncEndToEndSealer(schema: NotesSchema.declaration)
            let client = SyncClient(transport: transport, endpoint: store.rowsEndpoint(baseURL: baseURL), store: store)
            let sync = try await MeasuredSync.run(client, rows: transport.rowCount, pageSize: pageSize)
            try checkNoRepair(sync)
            let (notebooks, notes) = try await database.writer.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM notebook") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM note") ?? 0)
            }
            guard notebooks == notebookCount, notes == rowCount else {
                throw BenchError("the sync left \(notebooks) notebooks and \(notes) notes, not \(notebookCount) and \(rowCount)")
            }
            result = Result(app: app, rows: notes, notebooks: notebooks, pages: sync.report.pages, payloadBytes: sync.report.bytesReceived,
                            residentBeforeSyncBytes: sync.residentBeforeSyncBytes, peakResidentBytes: sync.peakResidentBytes, seconds: sync.seconds)
        }
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    /// The last page's digests were compared: a repair would be a second
    /// snapshot, measured as if it were one.
    static func checkNoRepair(_ sync: MeasuredSync) throws {
        if let repaired = sync.report.repaired {
            throw BenchError("the synced rows differed from the snapshot's digests (\(repaired))")
        }
    }
}
