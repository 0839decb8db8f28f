import Foundation

// MARK: - Destinations

extension DatabaseFileOperations {
    /// Refuses a destination that exists (unless replacing), whose folder
    /// does not, or that is one of the files it must never replace: a
    /// database of `databases` or one of its `-wal`, `-shm` and `-journal`
    /// files, or one of `files` (key and passphrase files). The
    /// comparison resolves symbolic links in the folders and compares
    /// devices and inodes, so that another spelling or a hard link of the
    /// database is refused too.
    public static func checkDestination(
        _ destination: URL,
        replacing: Bool,
        protecting databases: [URL] = [],
        files: [URL] = []) throws
    {
        let folder = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DatabaseFileError.missingFolder(folder.path)
        }
        let protected = databases.flatMap(databaseFiles(at:)) + files
        if let clash = protected.first(where: { isSameFile(destination, $0) }) {
            throw DatabaseFileError.destinationIsInput(destination: destination.path, input: clash.path)
        }
        if !replacing && FileManager.default.fileExists(atPath: destination.path) {
            throw DatabaseFileError.destinationExists(destination.path)
        }
    }

    /// The suffixes of a database's files: the database, then the files
    /// SQLite keeps next to it.
    static let databaseFileSuffixes = ["", "-wal", "-shm", "-journal"]

    /// The database file at `database`, then the files SQLite keeps next
    /// to it.
    package static func databaseFiles(at database: URL) -> [URL] {
        databaseFileSuffixes.map { URL(fileURLWithPath: database.path + $0) }
    }

    /// Whether writing `destination` would replace `file`: the same path
    /// once the symbolic links of both are resolved (the file may not
    /// exist yet, as a `-wal`), or the same device and inode (a hard link).
    package static func isSameFile(_ destination: URL, _ file: URL) -> Bool {
        if canonicalPath(destination) == canonicalPath(file) { return true }
        var destinationStatus = stat()
        var fileStatus = stat()
        guard stat(destination.path, &destinationStatus) == 0, stat(file.path, &fileStatus) == 0 else { return false }
        return destinationStatus.st_dev == fileStatus.st_dev && destinationStatus.st_ino == fileStatus.st_ino
    }

    /// The path with the symbolic links of its folder resolved, and of
    /// the file itself when it is one.
    static func canonicalPath(_ url: URL) -> String {
        if let resolved = realpath(url.path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let folder = url.deletingLastPathComponent().path
        guard let resolved = realpath(folder, nil) else { return url.standardizedFileURL.path }
        defer { free(resolved) }
        return URL(fileURLWithPath: String(cString: resolved)).appendingPathComponent(url.lastPathComponent).path
    }
}

// MARK: - Removal

extension DatabaseFileOperations {
    /// Removes a database file and its companions.
    public static func removeFiles(at url: URL) {
        for file in databaseFiles(at: url) {
            try? FileManager.default.removeItem(at: file)
        }
    }
}
