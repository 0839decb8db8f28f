import Foundation

/// Passphrase, key and token files: read only when private to their owner,
/// and created with mode 0600. Errors never show the content.
public enum SecretFiles {
    /// The content of a secret file, refused when others can read it.
    public static func readPrivateFile(_ path: String, kind: String) throws -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw DatabaseFileError.system(.readSecret(kind: kind), path: path)
        }
        guard status.st_mode & 0o077 == 0 else {
            throw DatabaseFileError.secretReadableByOthers(kind: kind, path: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DatabaseFileError.secretUnreadable(kind: kind, path: path)
        }
        return data
    }

    /// A secret file's bytes, without one final newline (`\n` or `\r\n`,
    /// as `echo` and editors write it); refused when nothing is left. Every
    /// other byte is kept as it is, whether or not it is UTF-8.
    public static func readSecret(_ path: String, kind: String) throws -> Data {
        var secret = try readPrivateFile(path, kind: kind)
        if secret.last == UInt8(ascii: "\n") {
            secret.removeLast()
            if secret.last == UInt8(ascii: "\r") { secret.removeLast() }
        }
        guard !secret.isEmpty else {
            throw DatabaseFileError.secretEmpty(kind: kind, path: path)
        }
        return secret
    }

    /// A passphrase file: its bytes exactly, without one final newline.
    /// The bytes are the passphrase: files that differ in any other byte,
    /// even one that is not UTF-8, are different passphrases. A file
    /// holding a text has the same bytes as that text typed at the prompt
    /// or set in `PLAYERS_PASSPHRASE` (its UTF-8 encoding).
    public static func readPassphrase(_ path: String) throws -> Data {
        try readSecret(path, kind: "passphrase")
    }

    /// A token file: UTF-8 text without one final newline. A file that is
    /// not UTF-8 is refused rather than read with replacement characters,
    /// which would make different files the same token.
    public static func readToken(_ path: String) throws -> String {
        guard let token = String(validating: try readSecret(path, kind: "token"), as: UTF8.self) else {
            throw DatabaseFileError.tokenNotText(path)
        }
        return token
    }

    /// A key file: 64 hexadecimal digits, a 256-bit raw key.
    public static func readKey(_ path: String) throws -> Data {
        let text = String(decoding: try readPrivateFile(path, kind: "key"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = Data(hex: text), key.count == 32 else {
            throw DatabaseFileError.keyFileMalformed(path)
        }
        return key
    }

    /// Creates a key file with a new random 256-bit key, never replacing an
    /// existing file. The folder is created with mode 0700, the file with
    /// mode 0600, and the file is synced to disk before this returns.
    public static func createKey(at url: URL) throws -> Data {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var generator = SystemRandomNumberGenerator() // getrandom(2): cryptographically secure
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let hex = Data((key.map { String(format: "%02x", $0) }.joined() + "\n").utf8)
        if FileManager.default.fileExists(atPath: url.path) {
            throw DatabaseFileError.keyFileExists(url.path)
        }
        try PrivateFile.create(at: url, contents: hex)
        return key
    }
}

extension Data {
    /// Bytes from hexadecimal text, or nil.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(bytes)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
