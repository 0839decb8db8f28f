import CipherSync
import Foundation
import SyncEngine
import SyncSchema

/// A page of a tiny sync protocol, for the client's tests: items by name,
/// each with a value. CipherSync knows no protocol of its own; this one
/// has only what the client reads, and items to merge.
struct TestPage: SyncMessage, Codable, Equatable {
    /// `snapshot` or `delta`.
    var kind: String
    var cursor: String?
    var complete: Bool
    var next: String?
    var items: [String: Int]
    /// The server's items at `cursor` (``MemorySyncStore/digest(of:)``).
    var digests: [SyncTableDigest]?

    static func snapshot(cursor: String?, next: String? = nil, _ items: [String: Int] = [:], digest: SyncTableDigest? = nil) -> TestPage {
        TestPage(kind: "snapshot", cursor: cursor, complete: next == nil, next: next, items: items, digests: digest.map { [$0] })
    }

    static func delta(cursor: String?, next: String? = nil, _ items: [String: Int] = [:], digest: SyncTableDigest? = nil) -> TestPage {
        TestPage(kind: "delta", cursor: cursor, complete: next == nil, next: next, items: items, digests: digest.map { [$0] })
    }

    static func decodePage(_ data: Data) throws -> TestPage {
        do {
            return try JSONDecoder().decode(TestPage.self, from: data)
        } catch {
            throw SyncPayloadError(path: "$", "not a page")
        }
    }

    var isSnapshot: Bool { kind == "snapshot" }
    var isComplete: Bool { complete }
    var serverDigests: [SyncTableDigest]? { digests }

    /// The test protocol's cursors are opaque: nothing to check.
    static func position(ofCursor cursor: String) throws(SyncPayloadError) -> SyncCursorPosition? { nil }
    func sharedCounter(with position: SyncCursorPosition) -> Int64? { nil }
    func checkVersions(above lower: Int64?, atMost upper: Int64) throws(SyncPayloadError) {}
}
