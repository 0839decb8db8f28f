import CSQLCipher
import Foundation

/// A string comparison function for SQL `ORDER BY` and comparisons.
///
/// ```swift
/// let collation = DatabaseCollation("byLength") { lhs, rhs in
///     lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
/// }
/// db.add(collation: collation)
/// try db.execute(sql: "SELECT * FROM player ORDER BY name COLLATE byLength")
/// ```
///
/// The built-in collations (``unicodeCompare``, ``caseInsensitiveCompare``,
/// ``localizedCaseInsensitiveCompare``, ``localizedCompare``,
/// ``localizedStandardCompare``) are registered on every connection.
///
/// See <https://www.sqlite.org/c3ref/create_collation.html>.
public final class DatabaseCollation: Sendable {
    /// The name used in SQL: `COLLATE name`.
    public let name: String
    let compare: @Sendable (String, String) -> ComparisonResult

    public init(_ name: String, function: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = function
    }

    /// Compares strings by their Unicode scalars, as Swift's `<` does.
    public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }

    /// `String.caseInsensitiveCompare(_:)`.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") {
        $0.caseInsensitiveCompare($1)
    }

    /// `String.localizedCaseInsensitiveCompare(_:)`: the order people expect
    /// in a list of names.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") {
        $0.localizedCaseInsensitiveCompare($1)
    }

    /// `String.localizedCompare(_:)`.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") {
        $0.localizedCompare($1)
    }

    /// `String.localizedStandardCompare(_:)`: the Finder's order, with
    /// numbers compared by value ("file2" before "file10").
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") {
        $0.localizedStandardCompare($1)
    }

    /// The collations registered on every connection: GRDB's names (which
    /// schemas made with GRDB use), and the names CipherDB gave them before
    /// it took GRDB's, so that the schemas made with them still work.
    static let builtIns: [DatabaseCollation] = {
        let collations: [DatabaseCollation] = [
            .unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare,
            .localizedCompare, .localizedStandardCompare,
        ]
        let formerNames = [
            "unicodeCompare", "caseInsensitiveCompare", "localizedCaseInsensitiveCompare",
            "localizedCompare", "localizedStandardCompare",
        ]
        return collations + zip(formerNames, collations).map { DatabaseCollation($0, function: $1.compare) }
    }()
}

extension DatabaseCollation: Hashable {
    public static func == (lhs: DatabaseCollation, rhs: DatabaseCollation) -> Bool {
        lhs.name.lowercased() == rhs.name.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
    }
}

extension Database {
    /// Registers a collation on this connection. To register it on every
    /// connection of a queue or pool, call this from
    /// ``Configuration/prepareDatabase(_:)``.
    public func add(collation: DatabaseCollation) {
        let code = sqlite3_create_collation_v2(
            handle, collation.name, SQLITE_UTF8,
            Unmanaged.passUnretained(collation).toOpaque(),
            { context, lhsLength, lhsBytes, rhsLength, rhsBytes in
                let collation = Unmanaged<DatabaseCollation>.fromOpaque(context!).takeUnretainedValue()
                let lhs = String(decoding: UnsafeRawBufferPointer(start: lhsBytes, count: Int(lhsLength)), as: UTF8.self)
                let rhs = String(decoding: UnsafeRawBufferPointer(start: rhsBytes, count: Int(rhsLength)), as: UTF8.self)
                return CInt(collation.compare(lhs, rhs).rawValue)
            }, nil)
        guard code == SQLITE_OK else {
            // Only a misuse fails here (an invalid name or argument
            // count): a programmer error, as in GRDB.
            fatalError("\(DatabaseError(resultCode: code, message: lastErrorMessage))")
        }
        // SQLite holds an unretained pointer: keep the collation alive.
        collationBoxes[collation.name.lowercased()] = collation
    }

    /// Unregisters a collation.
    public func remove(collation: DatabaseCollation) {
        sqlite3_create_collation_v2(handle, collation.name, SQLITE_UTF8, nil, nil, nil)
        collationBoxes.removeValue(forKey: collation.name.lowercased())
    }
}
