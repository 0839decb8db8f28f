import CipherDB
import Foundation

/// `-` for a file: copies to standard output, and copies from standard
/// input, which go through a private temporary file when SQLite needs a
/// file (a database copy made with `sqlcipher_export`, a database to read).
extension DatabaseFileOperations {
    /// Exports like ``export(from:sourceKey:to:destinationKey:replacing:)``
    /// into a private temporary file (mode 0600) in the temporary folder,
    /// verifies it, writes it to `descriptor` (standard output), and
    /// removes it.
    public static func export(
        from source: URL,
        sourceKey: DatabaseKeySource?,
        toDescriptor descriptor: Int32,
        destinationKey: DatabaseKeySource?) throws
    {
        let temporary = try createTemporary(for: FileManager.default.temporaryDirectory.appendingPathComponent("players-export.db"))
        defer { removeFiles(at: temporary) }
        try writeExport(from: source, sourceKey: sourceKey, into: temporary, key: destinationKey)
        let file = open(temporary.path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else {
            throw DatabaseFileError.system(.readExport, path: temporary.path)
        }
        defer { close(file) }
        try copy(from: file, to: descriptor)
    }

    /// Copies standard input into a new private temporary file next to
    /// `destination` (`.NAME.PID.RANDOM.tmp`, mode 0600, as the copies of
    /// ``writeVerified(to:contents:_:)``, so that a killed run's is
    /// removed too), and runs `body` with it; the copy, and the files
    /// SQLite made next to it, are removed afterwards. An empty standard
    /// input is refused.
    public static func withCopyOfStandardInput<T>(next destination: URL, _ body: (URL) throws -> T) throws -> T {
        let temporary = try createTemporary(for: destination)
        defer { removeFiles(at: temporary) }
        let file = open(temporary.path, O_WRONLY | O_CLOEXEC)
        guard file >= 0 else {
            throw DatabaseFileError.system(.write, path: temporary.path)
        }
        let copied: Int
        do {
            defer { close(file) }
            copied = try copy(from: STDIN_FILENO, to: file)
        }
        guard copied > 0 else {
            throw DatabaseFileError.emptyStandardInput
        }
        return try body(temporary)
    }

    /// Copies everything `source` holds into `destination`, 64 KiB at a
    /// time, and returns the number of bytes.
    @discardableResult
    static func copy(from source: Int32, to destination: Int32) throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw DatabaseFileError.system(.read, path: name(of: source))
            }
            if count == 0 { return total }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(destination, $0.baseAddress! + offset, count - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw DatabaseFileError.system(.writeStream, path: name(of: destination))
                }
                offset += written
            }
            total += count
        }
    }

    private static func name(of descriptor: Int32) -> String {
        switch descriptor {
        case STDIN_FILENO: "standard input"
        case STDOUT_FILENO: "standard output"
        default: "the temporary copy"
        }
    }
}
