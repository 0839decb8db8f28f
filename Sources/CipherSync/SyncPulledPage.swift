import Foundation
import SyncEngine
import SyncSchema

/// A page of the engine's pull (``SyncSchema/SyncPage``) as CipherSync's
/// client pages, stages and checks it: its cursor names the server's
/// history (``SyncSchema/SyncCursor``), a snapshot lists its epochs, and
/// every version is checked against the cursors around it.
public struct SyncPulledPage: SyncMessage {
    public var page: SyncPage

    public init(_ page: SyncPage) {
        self.page = page
    }

    public var isSnapshot: Bool { page.kind == .snapshot }
    public var isComplete: Bool { page.isComplete }
    public var cursor: String? { page.cursor }
    public var next: String? { page.next }
    /// The digests of the last page: the staging keeps each table's, which
    /// the merge compares.
    public var serverDigests: [SyncTableDigest]? { page.digests }

    public static func position(ofCursor cursor: String) throws(SyncPayloadError) -> SyncCursorPosition? {
        do {
            let cursor = try SyncCursor(cursor)
            return SyncCursorPosition(server: cursor.server.uuidString, epoch: cursor.epoch, counter: cursor.counter)
        } catch {
            throw SyncPayloadError(error)
        }
    }

    public func sharedCounter(with position: SyncCursorPosition) -> Int64? {
        page.epochs.flatMap { SyncEpoch.sharedCounter($0, epoch: position.epoch, counter: position.counter) }
    }

    public func checkVersions(above lower: Int64?, atMost upper: Int64) throws(SyncPayloadError) {
        // The same sentences as the players protocol's; a path is made only
        // for an error.
        func check(_ version: Int64, _ path: @autoclosure () -> String) throws(SyncPayloadError) {
            if version > upper { throw SyncPayloadError(path: path(), "\(version) is above the page's cursor \(upper)") }
            if let lower, version <= lower {
                throw SyncPayloadError(path: path(), "\(version) is not after the cursor \(lower) that the page continues from")
            }
        }
        for (index, row) in page.rows.enumerated() { try check(row.version, "$.rows[\(index)].version") }
        for (index, tombstone) in page.tombstones.enumerated() { try check(tombstone.version, "$.tombstones[\(index)].version") }
    }
}
