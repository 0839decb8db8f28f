import Foundation

/// A cursor of the sync protocol (Players' and the engine's): a position
/// in the history of one server's database, written `COUNTER.EPOCH.SERVER`:
///
/// - `SERVER`, the identity of the server's database, a UUID made when the
///   database was created: a cursor of another database is never answered
///   with a delta;
/// - `EPOCH`, 16 lowercase hexadecimal digits, the epoch of the database's
///   history: a new one begins whenever the history may have gone back (a
///   restore from a backup), so that a cursor from before is never
///   answered with a delta either;
/// - `COUNTER`, the server's change counter (decimal digits);
/// - `.USER`, on a server that knows its users, 16 lowercase hexadecimal
///   digits that name the user it was issued to (``userTag(of:)``): the
///   server answers no other user's request with a delta after it.
///
/// ```swift
/// let cursor = try SyncCursor("42.7f3a9c2e1b5d4f60.0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34")
/// cursor.counter // 42
/// ```
public struct SyncCursor: Hashable, Sendable, CustomStringConvertible {
    public var counter: Int64
    public var epoch: String
    public var server: UUID
    /// The tag of the user it was issued to; nil on a server of one
    /// shared token.
    public var user: String?

    public init(counter: Int64, epoch: String, server: UUID, user: String? = nil) {
        self.counter = counter
        self.epoch = epoch
        self.server = server
        self.user = user
    }

    /// Reads a cursor, throwing for anything but this form (the bare
    /// counters of older servers included).
    public init(_ text: String) throws(SyncMessageError) {
        // A server reads one for every delta it answers: without sscanf.
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 || (parts.count == 4 && Self.isEpoch(parts[3])), parts[0].utf8.allSatisfy(Self.isDigit),
              let counter = Int64(parts[0]), Self.isEpoch(parts[1]), !parts[2].utf8.contains(where: Self.isLowercaseLetter),
              let server = UUID(parsing: String(parts[2])) else {
            throw SyncMessageError(path: "$.cursor", "not a cursor of this protocol")
        }
        self.init(counter: counter, epoch: String(parts[1]), server: server, user: parts.count == 4 ? String(parts[3]) : nil)
    }

    public var description: String { "\(counter).\(epoch).\(server.uuidString)" + (user.map { ".\($0)" } ?? "") }

    /// The tag that names `user` (a token's `sub`) in the cursors issued
    /// to them: the first 16 hexadecimal digits of its MD5. It grants
    /// nothing: the server compares it with the tag of the request's
    /// verified user.
    public static func userTag(of user: String) -> String {
        var bytes = Array(user.utf8)
        return String(SyncMD5.hexadecimal(&bytes).prefix(16))
    }

    /// A cursor as a line of a command line shows it: its counter (`4815`),
    /// where a JSON report has the whole cursor, with the server's
    /// identity and epoch; a text that is no cursor as it is; `none`.
    ///
    /// ```swift
    /// SyncCursor.shown("4815.7f3a9c2e1b5d4f60.5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F")   // "4815"
    /// ```
    public static func shown(_ cursor: String?) -> String {
        guard let cursor else { return "none" }
        return (try? SyncCursor(cursor)).map { String($0.counter) } ?? cursor
    }

    /// Whether `text` is a cursor of the older form: a bare counter,
    /// without the server's identity and epoch.
    public static func isOlderForm(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isDigit)
    }

    /// A new random epoch.
    public static func newEpoch() -> String {
        SyncHexadecimal.text(UInt64.random(in: .min ... .max))
    }

    /// Whether `text` is an epoch: 16 lowercase hexadecimal digits.
    public static func isEpoch(_ text: Substring) -> Bool {
        SyncHexadecimal.value(text) != nil
    }

    /// The server's id is written in uppercase (`UUID.uuidString`).
    private static func isLowercaseLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
