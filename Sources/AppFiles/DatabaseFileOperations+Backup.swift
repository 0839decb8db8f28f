import CipherDB
import Foundation

extension DatabaseFileOperations {
    /// An online backup of any database (a device's, a server's):
    /// consistent even while other connections or processes write,
    /// encrypted with `destinationKey`, verified before it is renamed into
    /// place.
    /// `markingCopy` changes the copy before it is verified, without
    /// adding or removing rows (the server marks its backups).
    public static func backup(
        reader source: any DatabaseReader,
        to destination: URL,
        destinationKey: DatabaseKeySource?,
        replacing: Bool = false,
        progress: Progress? = nil,
        markingCopy: ((Database) throws -> Void)? = nil) throws
    {
        try checkDestination(destination, replacing: replacing, protecting: databaseFiles(of: source))
        // The copy's pages are the source's size: SQLCipher copies pages
        // only between files of one size, and cannot read it from a file.
        let pageSize = try source.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") }
        try writeVerified(to: destination) { temporary in
            try writeVerifiedCopy(at: temporary, key: destinationKey, pageSize: pageSize) {
                try withDatabase(at: temporary, key: destinationKey, pageSize: pageSize) { copy in
                    try copy.writeWithoutTransaction { copyDB in
                        let counts = try source.read { sourceDB in
                            // The counts and the pages come from one snapshot.
                            let counts = try tableCounts(sourceDB)
                            try sourceDB.backup(
                                to: copyDB,
                                pagesPerStep: 64,
                                allowsPlaintextDestination: destinationKey == nil) { step in
                                    progress?(Double(step.completedPageCount) / Double(max(step.totalPageCount, 1)))
                                }
                            return counts
                        }
                        try markingCopy?(copyDB)
                        return counts
                    }
                }
            }
        }
    }
}
