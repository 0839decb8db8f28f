import Foundation
import Players

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
            throw DatabaseFileError("the folder \(folder.path) does not exist: create it first")
        }
        let protected = databases.flatMap(databaseFiles(at:)) + files
        if let clash = protected.first(where: { isSameFile(destination, $0) }) {
            throw DatabaseFileError(
                "\(destination.path) is \(clash.path), which this command reads: choose another destination (nothing was written)")
        }
        if !replacing && FileManager.default.fileExists(atPath: destination.path) {
            throw DatabaseFileError("\(destination.path) already exists: choose another name, or replace it explicitly")
        }
    }

    /// The suffixes of a database's files: the database, then the files
    /// SQLite keeps next to it.
    static let databaseFileSuffixes = ["", "-wal", "-shm", "-journal"]

    /// The database file at `database`, then the files SQLite keeps next
    /// to it.
    static func databaseFiles(at database: URL) -> [URL] {
        databaseFileSuffixes.map { URL(fileURLWithPath: database.path + $0) }
    }

    /// Whether writing `destination` would replace `file`: the same path
    /// once the symbolic links of both are resolved (the file may not
    /// exist yet, as a `-wal`), or the same device and inode (a hard link).
    static func isSameFile(_ destination: URL, _ file: URL) -> Bool {
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

// MARK: - Temporary files

extension DatabaseFileOperations {
    /// A new private temporary file next to `destination`, created with
    /// mode 0600 and `contents` (empty for a database copy):
    /// `.NAME.PID.RANDOM.tmp`. The process id tells the temporary files of
    /// a killed run, which this removes first (see
    /// ``removeAbandonedTemporaries(of:)``), from those of a run in progress.
    static func createTemporary(for destination: URL, contents: Data = Data()) throws -> URL {
        removeAbandonedTemporaries(of: destination)
        let random = UUID().uuidString.prefix(8)
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(random).tmp")
        try PrivateFile.create(at: temporary, contents: contents)
        return temporary
    }

    /// Removes the temporary files that a killed run left next to
    /// `destination` (a copy, and its `-wal`, `-shm` or `-journal`): those
    /// whose process no longer runs. Returns their paths.
    @discardableResult
    public static func removeAbandonedTemporaries(of destination: URL) -> [String] {
        let folder = destination.deletingLastPathComponent()
        let prefix = ".\(destination.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            // PID, RANDOM, then "tmp" with an optional SQLite suffix.
            guard parts.count == 3, let pid = pid_t(parts[0]), pid > 0,
                  databaseFileSuffixes.contains(where: { parts[2] == "tmp" + $0 }) else { continue }
            guard kill(pid, 0) != 0 && errno == ESRCH else { continue }
            let path = folder.appendingPathComponent(name).path
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed
    }

    /// Syncs the copy, renames it over the destination, and syncs the
    /// folder, so that the destination is the old file or the complete
    /// new one, even after a crash.
    static func moveIntoPlace(_ temporary: URL, destination: URL) throws {
        try sync(temporary.path)
        for suffix in databaseFileSuffixes.dropFirst() {
            try? FileManager.default.removeItem(atPath: temporary.path + suffix)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            throw DatabaseFileError("cannot move the copy to \(destination.path): \(String(cString: strerror(errno)))")
        }
        try sync(destination.deletingLastPathComponent().path)
    }

    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DatabaseFileError("cannot open \(path) to sync it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw DatabaseFileError("cannot sync \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes a database file and its companions.
    public static func removeFiles(at url: URL) {
        for file in databaseFiles(at: url) {
            try? FileManager.default.removeItem(at: file)
        }
    }
}
