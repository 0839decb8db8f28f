import AppFiles
import CipherDB
import Foundation
import Players

extension DatabaseFileOperations {
    /// An online backup of `source` into `destination`: consistent even
    /// while other connections write, encrypted with `destinationKey`.
    public static func backup(
        _ source: AppDatabase,
        to destination: URL,
        destinationKey: DatabaseKeySource?,
        replacing: Bool = false,
        progress: Progress? = nil) throws
    {
        try backup(reader: source.reader, to: destination, destinationKey: destinationKey,
                   replacing: replacing, progress: progress)
    }
}
