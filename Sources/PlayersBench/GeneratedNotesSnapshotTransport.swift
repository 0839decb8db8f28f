import CipherSync
import Foundation
import Notes
import SyncSchema

/// A sync server in memory for the notes memory workload: it answers a
/// snapshot of `noteCount` notes in `notebookCount` notebooks (the
/// notebooks first, as a server lists parents before their children) in
/// pages of `pageSize` rows, each page made when asked for, so that the
/// benchmark process holds no more of the snapshot than a device would;
/// the catch-up delta is empty. The last page carries the digests of both
/// tables, as a server's does, so that the device compares its synced rows
/// with them.
struct GeneratedNotesSnapshotTransport: HTTPTransport {
    let noteCount: Int
    let notebookCount: Int
    let pageSize: Int
    /// The digests of the rows of the pages made so far.
    private let digests = RowDigests()

    init(noteCount: Int, notebookCount: Int, pageSize: Int) {
        self.noteCount = noteCount
        self.notebookCount = notebookCount
        self.pageSize = pageSize
    }

    var rowCount: Int { notebookCount + noteCount }

    /// The snapshot's cursor: the server's history never changes.
    var cursor: String {
        SyncCursor(counter: Int64(rowCount), epoch: "0000000000000001", server: GeneratedSnapshotTransport.server).description
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let page: SyncPage
        if query.contains(where: { $0.name == "since" }) {
            page = SyncPage(kind: .delta, isComplete: true, cursor: cursor, rows: [], tombstones: [])
        } else {
            let number = query.first { $0.name == "page" }.flatMap { Int($0.value ?? "") } ?? 0
            let range = number * pageSize..<min((number + 1) * pageSize, rowCount)
            let isLast = range.upperBound == rowCount
            let rows = try range.map(row)
            page = SyncPage(kind: .snapshot, isComplete: isLast, cursor: cursor,
                            next: isLast ? nil : "/v1/sync/rows?page=\(number + 1)",
                            rows: rows, tombstones: [], digests: digests.adding(rows, isLast: isLast))
        }
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: try page.jsonData(), url: request.url)
    }

    /// Row number `index` of the snapshot: a notebook, then the notes,
    /// each in the notebook of its number; the same on every run.
    func row(_ index: Int) throws -> SyncServerRow {
        let declaration = NotesSchema.declaration
        if index < notebookCount {
            let row = try declaration.table("notebook")!.row(id: Self.uuid(index, kind: 1), values: ["name": .text("Notebook \(index)")])
            return SyncServerRow(row: row, version: Int64(index + 1))
        }
        let note = index - notebookCount
        let row = try declaration.table("note")!.row(id: Self.uuid(note, kind: 2), values: [
            "notebook": .uuid(Self.uuid(note % notebookCount, kind: 1)),
            "title": .text("Note \(note)"),
            "body": .text("The body of note \(note), a line as long as a short paragraph's first."),
        ])
        return SyncServerRow(row: row, version: Int64(index + 1))
    }

    /// A version 4 UUID made of `kind` and `number`, in the order of the
    /// numbers.
    static func uuid(_ number: Int, kind: UInt8) -> UUID {
        let head: [UInt8] = (0..<5).reversed().map { UInt8(truncatingIfNeeded: number >> (8 * $0)) }
        let tail: [UInt8] = (0..<7).map { UInt8(truncatingIfNeeded: number >> (8 * $0)) }
        let bytes: [UInt8] = [kind] + head + [0x40, 0x00, 0x80] + tail
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}

/// The digests of the rows of the snapshot's pages, each page added as it
/// is made (pages are asked for one at a time, in order).
private final class RowDigests: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private let hasher = SyncRowHasher()
    private var digests = NotesSchema.declaration.tables.map { SyncTableDigest(table: $0) }

    /// Adds `rows`; the digests of every row so far when `isLast`.
    func adding(_ rows: [SyncServerRow], isLast: Bool) -> [SyncTableDigest]? {
        lock.withLock {
            for server in rows {
                guard let index = digests.firstIndex(where: { $0.table == server.row.table }),
                      let table = NotesSchema.declaration.table(server.row.table) else { continue }
                digests[index].toggle(hasher.hash(table, id: server.row.id, version: server.version, values: server.row.values))
            }
            return isLast ? digests : nil
        }
    }
}
