import Foundation

/// Files that only their owner may read, created with mode 0600 from their
/// first byte: never created with the default mode and restricted later,
/// which would leave them readable by others for a while, and for good if
/// the process is killed meanwhile.
public enum PrivateFile {
    /// Creates `url` with `contents`, synced to disk, never replacing an
    /// existing file. A partly written file is removed.
    ///
    /// - throws: ``DatabaseFileError`` when the file exists or cannot be
    ///   written.
    public static func create(at url: URL, contents: Data = Data()) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST {
                throw DatabaseFileError.fileExists(url.path)
            }
            throw DatabaseFileError.system(.create, path: url.path)
        }
        defer { close(descriptor) }
        do {
            try write(contents, to: descriptor, path: url.path)
            guard fsync(descriptor) == 0 else {
                throw DatabaseFileError.system(.sync, path: url.path)
            }
        } catch {
            unlink(url.path)
            throw error
        }
    }

    /// Creates an empty private file for a new database, unless a file
    /// exists at `url`: SQLite then creates the `-wal`, `-shm` and
    /// `-journal` files with the same mode.
    ///
    /// See <https://www.sqlite.org/tempfiles.html>.
    public static func createDatabaseFileIfMissing(at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw DatabaseFileError.system(.createDatabase, path: url.path)
        }
    }

    /// Writes all of `data`, resuming after short and interrupted writes.
    private static func write(_ data: Data, to descriptor: CInt, path: String) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw DatabaseFileError.system(.write, path: path)
                }
                offset += written
            }
        }
    }
}
