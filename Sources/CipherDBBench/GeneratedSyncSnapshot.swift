import CipherSync
import Foundation
import Notes
import PlayersShared
import SyncSchema

/// A sync server in memory for the memory workloads: it answers a
/// snapshot of `rowCount` rows of an app's declared tables (`row(index)`,
/// parents before their children, as a server lists them) in pages of
/// `pageSize`, each page made when asked for, so that the benchmark
/// process holds no more of the snapshot than a device would; the
/// catch-up delta is empty. The last page carries the digest of every
/// table, as a server's does, so that the device compares its synced rows
/// with them.
struct GeneratedSyncSnapshot: HTTPTransport {
    let schema: SyncSchema
    let rowCount: Int
    let pageSize: Int
    let row: @Sendable (Int) throws -> SyncServerRow
    /// The digests of the rows of the pages made so far.
    private let digests: RowDigests

    init(schema: SyncSchema, rowCount: Int, pageSize: Int, row: @escaping @Sendable (Int) throws -> SyncServerRow) {
        self.schema = schema
        self.rowCount = rowCount
        self.pageSize = pageSize
        self.row = row
        digests = RowDigests(schema)
    }

    /// The snapshot's cursor: the server's history never changes.
    var cursor: String { Self.cursor(at: rowCount) }

    /// The cursor at `counter` of the benchmark's server.
    static func cursor(at counter: Int) -> String {
        SyncCursor(counter: Int64(counter), epoch: "0000000000000001", server: server).description
    }

    static let server = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

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
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: page.jsonData(), url: request.url)
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

extension GeneratedSyncSnapshot {
    /// `count` players, each the same on every run, in uuid order.
    static func players(count: Int, pageSize: Int) -> GeneratedSyncSnapshot {
        GeneratedSyncSnapshot(schema: PlayersSchema.schema, rowCount: count, pageSize: pageSize, row: player)
    }

    /// Player number `index`, with version `index + 1`.
    static func player(_ index: Int) throws -> SyncServerRow {
        let row = try PlayersSchema.player.row(id: uuid(index, kind: 0), values: [
            "name": .text("Player \(index)"), "score": .integer(Int64(index % 1_000_000)),
        ])
        return SyncServerRow(row: row, version: Int64(index + 1))
    }

    /// `noteCount` notes in `notebookCount` notebooks (the notebooks
    /// first), each note in the notebook of its number: sealed, as Notes'
    /// end-to-end tables travel (``BenchNotes``), or in the clear.
    static func notes(noteCount: Int, notebookCount: Int, pageSize: Int, sealed: Bool = true) -> GeneratedSyncSnapshot {
        let declaration = NotesSchema.declaration
        let schema = sealed ? declaration.serverView : BenchNotes.inTheClear
        return GeneratedSyncSnapshot(schema: schema, rowCount: notebookCount + noteCount, pageSize: pageSize) { index in
            let (row, notebook): (SyncRow, UUID)
            if index < notebookCount {
                notebook = notebookID(index)
                row = try declaration.table("notebook")!.row(id: notebook, values: ["name": .text("Notebook \(index)")])
            } else {
                let note = index - notebookCount
                notebook = notebookID(note % notebookCount)
                row = try declaration.table("note")!.row(id: uuid(note, kind: 2), values: [
                    "notebook": .uuid(notebook),
                    "title": .text("Note \(note)"),
                    "body": .text("The body of note \(note), a line as long as a short paragraph's first."),
                ])
            }
            let version = Int64(index + 1)
            return SyncServerRow(row: sealed ? try BenchNotes.sealed(row, notebook: notebook, version: version) : row, version: version)
        }
    }

    /// The id of notebook number `index` of ``notes(noteCount:notebookCount:pageSize:sealed:)``.
    static func notebookID(_ index: Int) -> UUID {
        uuid(index, kind: 1)
    }

    /// The digest of each table of `schema` over `rows`, as a server
    /// computes them.
    static func digests(of rows: some Sequence<SyncServerRow>, schema: SyncSchema) -> [SyncTableDigest] {
        let digests = RowDigests(schema)
        _ = digests.adding(Array(rows), isLast: false)
        return digests.adding([], isLast: true) ?? []
    }
}

/// The digests of the rows of the snapshot's pages, each page added as it
/// is made (pages are asked for one at a time, in order).
private final class RowDigests: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private let hasher = SyncRowHasher()
    private let schema: SyncSchema
    private var digests: [SyncTableDigest]

    init(_ schema: SyncSchema) {
        self.schema = schema
        digests = schema.tables.map { SyncTableDigest(table: $0) }
    }

    /// Adds `rows`; the digests of every row so far when `isLast`.
    func adding(_ rows: [SyncServerRow], isLast: Bool) -> [SyncTableDigest]? {
        lock.withLock {
            for server in rows {
                guard let index = digests.firstIndex(where: { $0.table == server.row.table }),
                      let table = schema.table(server.row.table) else { continue }
                digests[index].toggle(hasher.hash(table, id: server.row.id, version: server.version, values: server.row.values))
            }
            return isLast ? digests : nil
        }
    }
}
