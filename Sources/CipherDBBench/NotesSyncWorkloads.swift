import CipherDB
import CipherSync
import Foundation
import Notes
import Synchronization
import SyncEndToEnd
import SyncEngine

/// What end-to-end encryption costs a device's pull: the sync of a
/// snapshot of Notes' notebooks and notes into a new database, sealed
/// (each row opened, checked by the declaration, its sealed counter kept:
/// ``SyncEndToEnd/SyncEndToEndSealer``) against the same tables in the
/// clear. The pages are made once, before the runs, and served from
/// memory: the server's work is not the device's. Raw key only, as a
/// Notes database is always encrypted.
struct NotesSyncWorkloads {
    let folder: URL
    let noteCount: Int

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let name = "sync: a \(noteCount)-note snapshot, end-to-end against in the clear"
        guard mode == .rawKey, harness.includes(name) else { return }
        let notebookCount = max(1, noteCount / 1000)
        let pageSize = SnapshotMemoryWorkload.pageSize
        let sealedPages = CachedPages(GeneratedSyncSnapshot.notes(noteCount: noteCount, notebookCount: notebookCount, pageSize: pageSize))
        let clearPages = CachedPages(GeneratedSyncSnapshot.notes(noteCount: noteCount, notebookCount: notebookCount, pageSize: pageSize,
                                                                 sealed: false))
        let path = folder.appendingPathComponent("notes-sync.db").path
        let key = Data((0..<32).map { UInt8($0) })
        let database = Mutex<NotesDatabase?>(nil)
        func fresh(sealed: Bool) throws {
            database.withLock { $0 = nil }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let notes = try NotesDatabase.create(atPath: path, key: .rawKey { key })
            if sealed { try BenchNotes.prepareKeys(notes.writer, notebooks: (0..<notebookCount).map(GeneratedSyncSnapshot.notebookID)) }
            database.withLock { $0 = notes }
        }
        func sync(sealed: Bool) async throws {
            guard let notes = database.withLock({ $0 }) else { throw BenchError("no database to sync into") }
            var store = SyncEngineStore(notes.writer, schema: sealed ? NotesSchema.declaration : BenchNotes.inTheClear)
            if sealed { store.endToEnd = SyncEndToEndSealer(schema: NotesSchema.declaration) }
            var client = SyncClient(transport: sealed ? sealedPages : clearPages,
                                    endpoint: store.rowsEndpoint(baseURL: URL(string: "http://127.0.0.1:8080")!), store: store)
            client.maximumBytes = Int.max
            let report = try await client.sync()
            guard report.inserted == noteCount + notebookCount, report.refusedRows.isEmpty, report.repaired == nil else {
                throw BenchError("the \(sealed ? "sealed" : "clear") sync inserted \(report.inserted) rows and refused "
                    + "\(report.refusedRows.count), not \(noteCount + notebookCount) and none")
            }
        }
        try await harness.measureAsync(name, mode: mode, prepare: { try fresh(sealed: true) }, prepareBaseline: { try fresh(sealed: false) },
                                       subject: { try await sync(sealed: true) }, baseline: { try await sync(sealed: false) })
    }
}

/// A server's answers made once each and kept: the runs after the first
/// are served from memory.
private final class CachedPages: HTTPTransport {
    private let base: any HTTPTransport
    private let answers = Mutex<[URL: HTTPResponse]>([:])

    init(_ base: any HTTPTransport) {
        self.base = base
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        if let answer = answers.withLock({ $0[request.url] }) { return answer }
        let answer = try await base.send(request)
        answers.withLock { $0[request.url] = answer }
        return answer
    }
}
