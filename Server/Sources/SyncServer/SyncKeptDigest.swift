import Foundation
import SyncSchema

/// A table's digest as a store keeps it (`sync_server_digest`): the
/// columns its hashes cover as ``SyncTableDigest/storedColumns``, nil once
/// a write of another declaration left it not true, and its checksum as a
/// signed integer, which both stores' integer columns hold.
///
/// A batch's changes of digests (``SyncChangePlan/digestChanges``) are
/// applied to the kept digests by one rule, above the stores
/// (``applying(_:)``): each store reads its kept digests and writes back
/// what the rule gives.
///
/// ```swift
/// let kept = try keptDigests(of: plan.digestChanges.map(\.table))
/// for digest in SyncKeptDigest.applying(plan.digestChanges, to: kept) { try save(digest) }
/// ```
public struct SyncKeptDigest: Sendable, Equatable {
    public var table: String
    public var columns: String?
    public var rows: Int
    public var checksum: Int64

    public init(table: String, columns: String?, rows: Int, checksum: Int64) {
        self.table = table
        self.columns = columns
        self.rows = rows
        self.checksum = checksum
    }

    /// The kept digests that a batch's `changes` write: a digest of the
    /// change's columns takes the change (its rows added, its checksum
    /// XORed); one of other columns, another declaration's, is marked not
    /// true (columns nil: that declaration makes it anew when it opens,
    /// ``SyncMissingDigests``); a table with no kept digest keeps none.
    public static func applying(_ changes: [SyncTableDigest], to kept: [SyncKeptDigest]) -> [SyncKeptDigest] {
        let keptByTable = Dictionary(kept.map { ($0.table, $0) }, uniquingKeysWith: { first, _ in first })
        return changes.compactMap { change in
            guard var digest = keptByTable[change.table] else { return nil }
            if digest.columns == change.storedColumns {
                digest.rows += change.rows
                digest.checksum ^= change.storedChecksum
            } else {
                digest.columns = nil
            }
            return digest
        }
    }
}
