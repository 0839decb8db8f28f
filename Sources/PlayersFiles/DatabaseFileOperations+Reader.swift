import CipherDB
import Foundation

extension DatabaseFileOperations {
    /// An online backup of any database, such as the players server's
    /// (whose schema is not the players one): consistent even while other
    /// connections or processes write, encrypted with `destinationKey`,
    /// written to a temporary file next to `destination`, synced, verified
    /// (opened with its key, `integrity_check`, the same row counts), then
    /// renamed into place.
    public static func backup(
        reader source: any DatabaseReader,
        to destination: URL,
        destinationKey: DestinationKey,
        replacing: Bool = false,
        progress: Progress? = nil) throws
    {
        try checkDestination(destination, replacing: replacing)
        let temporary = temporaryURL(for: destination)
        do {
            let counts = try withDatabase(at: temporary, key: destinationKey) { copy in
                try copy.writeWithoutTransaction { copyDB in
                    try source.read { sourceDB in
                        // The counts and the pages come from one snapshot.
                        let counts = try tableCounts(sourceDB)
                        try sourceDB.backup(
                            to: copyDB,
                            pagesPerStep: 64,
                            allowsPlaintextDestination: destinationKey.isPlaintext) { step in
                                progress?(Double(step.completedPageCount) / Double(max(step.totalPageCount, 1)))
                            }
                        return counts
                    }
                }
            }
            try verify(temporary, key: destinationKey, counts: counts)
            try moveIntoPlace(temporary, destination: destination)
        } catch {
            removeFiles(at: temporary)
            throw error
        }
    }
}
