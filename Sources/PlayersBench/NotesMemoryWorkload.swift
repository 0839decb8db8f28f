import CipherDB
import CipherSync
import Foundation
import Notes
import SyncEngine

/// The peak resident memory of a sync of a large snapshot of notes into
/// an empty Notes database, raw key: the real client (`SyncClient` and the
/// sync engine's store, staging in the database included) against a
/// server in memory (``GeneratedSyncSnapshot``), in a child
/// process, as ``MemoryWorkload`` measures the players'.
struct NotesMemoryWorkload {
    let folder: URL
    let noteCount: Int

    /// The name `--workload` filters on.
    static let name = "memory: sync a notes snapshot"
    /// Rows per page: the server's default.
    static let pageSize = 500

    /// What the child reports.
    struct Result: Codable, Sendable {
        var notes: Int
        var notebooks: Int
        var pages: Int
        /// The bodies of every page together.
        var payloadBytes: Int
        /// The peak before the sync: the process with the database open.
        var residentBeforeSyncBytes: Int
        var peakResidentBytes: Int
        var seconds: Double

        var summary: String {
            let megabytes = { (bytes: Int) in String(format: "%.0f MB", Double(bytes) / 1e6) }
            return "sync a snapshot of \(notes) notes in \(notebooks) notebooks in \(pages) pages [raw key]:"
                + " peak resident memory \(megabytes(peakResidentBytes)), for a \(megabytes(payloadBytes)) payload"
                + " (\(megabytes(residentBeforeSyncBytes)) before the sync); \(Harness.format(seconds))"
        }
    }

    /// Runs the child, returns what it measured.
    func run() throws -> Result {
        try JSONDecoder().decode(Result.self, from: MeasuredSync.child(["--sync-notes-memory", folder.path, "--memory-notes", "\(noteCount)"]))
    }

    /// The child: syncs `noteCount` notes (in a notebook per thousand)
    /// into a new database in `folder`, and prints its peak memory as JSON.
    static func measureChild(folder: URL, noteCount: Int) async throws {
        let key = Data((0..<32).map { UInt8($0) })
        let database = try NotesDatabase.create(atPath: folder.appendingPathComponent("notes-memory-\(noteCount).db").path, key: .rawKey { key })
        let notebookCount = max(1, noteCount / 1000)
        let transport = GeneratedSyncSnapshot.notes(noteCount: noteCount, notebookCount: notebookCount, pageSize: pageSize)
        let store = SyncEngineStore(database.writer, schema: NotesSchema.declaration)
        let client = SyncClient(transport: transport, endpoint: store.rowsEndpoint(baseURL: URL(string: "http://127.0.0.1:8080")!), store: store)
        let sync = try await MeasuredSync.run(client, rows: transport.rowCount, pageSize: pageSize)
        let (notebooks, notes) = try await database.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM notebook") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM note") ?? 0)
        }
        // The last page's digests were compared: a repair would be a
        // second snapshot, measured as if it were one.
        if let repaired = sync.report.repaired {
            throw BenchError("the synced notes differed from the snapshot's digests (\(repaired.local); \(repaired.server))")
        }
        guard notebooks == notebookCount, notes == noteCount else {
            throw BenchError("the sync left \(notebooks) notebooks and \(notes) notes, not \(notebookCount) and \(noteCount)")
        }
        let result = Result(
            notes: noteCount, notebooks: notebooks, pages: sync.report.pages, payloadBytes: sync.report.bytesReceived,
            residentBeforeSyncBytes: sync.residentBeforeSyncBytes, peakResidentBytes: sync.peakResidentBytes, seconds: sync.seconds)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }
}
