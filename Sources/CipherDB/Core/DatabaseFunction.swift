import CSQLCipher
import Foundation

/// A custom SQL function.
///
/// ```swift
/// let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { values in
///     String.fromDatabaseValue(values[0]).map { String($0.reversed()) }
/// }
/// db.add(function: reverse)
/// try String.fetchOne(db, sql: "SELECT reverse('abc')") // "cba"
/// ```
///
/// An error thrown by the function fails the statement with its message.
///
/// See <https://www.sqlite.org/c3ref/create_function.html>.
public final class DatabaseFunction: Sendable {
    /// The name used in SQL.
    public let name: String
    /// The number of arguments, or nil for any number.
    let argumentCount: Int?
    /// Whether the function always returns the same result for the same
    /// arguments (SQLITE_DETERMINISTIC), so that SQLite may factor calls.
    let isPure: Bool
    let function: @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?

    struct Identity: Hashable {
        let name: String
        let argumentCount: Int?
    }

    var identity: Identity { Identity(name: name.lowercased(), argumentCount: argumentCount) }

    public init(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
    {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.function = function
    }
}

extension Database {
    /// Registers a function on this connection. To register it on every
    /// connection of a queue or pool, call this from
    /// ``Configuration/prepareDatabase(_:)``.
    public func add(function: DatabaseFunction) {
        var flags = SQLITE_UTF8
        if function.isPure { flags |= SQLITE_DETERMINISTIC }
        let code = sqlite3_create_function_v2(
            handle, function.name, CInt(function.argumentCount ?? -1), flags,
            Unmanaged.passUnretained(function).toOpaque(),
            { sqliteContext, argumentCount, arguments in
                let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(sqliteContext)!).takeUnretainedValue()
                let values = (0..<Int(argumentCount)).map { DatabaseValue(sqliteValue: arguments![$0]!) }
                do {
                    let result = try function.function(values)
                    (result?.databaseValue ?? .null).setResult(of: sqliteContext!)
                } catch let error as DatabaseError {
                    sqlite3_result_error(sqliteContext, error.message ?? "function failed", -1)
                    sqlite3_result_error_code(sqliteContext, error.extendedResultCode.rawValue)
                } catch {
                    sqlite3_result_error(sqliteContext, "\(error)", -1)
                }
            }, nil, nil, nil)
        guard code == SQLITE_OK else {
            // Only a misuse fails here (an invalid name or argument
            // count): a programmer error, as in GRDB.
            fatalError("\(DatabaseError(resultCode: code, message: lastErrorMessage))")
        }
        // SQLite holds an unretained pointer: keep the function alive.
        functionBoxes[function.identity] = function
    }

    /// Unregisters a function.
    public func remove(function: DatabaseFunction) {
        sqlite3_create_function_v2(handle, function.name, CInt(function.argumentCount ?? -1), SQLITE_UTF8,
                                   nil, nil, nil, nil, nil)
        functionBoxes.removeValue(forKey: function.identity)
    }
}
