import CSQLCipher
import Foundation

/// A custom SQL function or aggregate.
///
/// ```swift
/// let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { values in
///     String.fromDatabaseValue(values[0]).map { String($0.reversed()) }
/// }
/// db.add(function: reverse)
/// try String.fetchOne(db, sql: "SELECT reverse('abc')") // "cba"
/// ```
///
/// An aggregate is a type that adopts ``DatabaseAggregate``:
///
/// ```swift
/// let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: MySum.self)
/// db.add(function: mySum)
/// try Int.fetchOne(db, sql: "SELECT mySum(score) FROM player")
/// ```
///
/// An error thrown by the function or the aggregate fails the statement:
/// a ``DatabaseError`` with its code and message, any other error with
/// its description and `SQLITE_ERROR`.
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
    let kind: Kind

    /// What SQLite calls: a function for each row, or an aggregate made
    /// for each aggregation, stepped for each row and finalized once.
    enum Kind: Sendable {
        case function(@Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(@Sendable () -> any DatabaseAggregate)
    }

    struct Identity: Hashable {
        let name: String
        let argumentCount: Int?
    }

    var identity: Identity { Identity(name: name.lowercased(), argumentCount: argumentCount) }

    /// Creates an SQL function.
    public init(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
    {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .function(function)
    }

    /// Creates an SQL aggregate: a new `Aggregate` for each aggregation,
    /// whose ``DatabaseAggregate/step(_:)`` is called with the arguments of
    /// each row, and whose ``DatabaseAggregate/finalize()`` gives the
    /// result.
    public init<Aggregate: DatabaseAggregate>(
        _ name: String,
        argumentCount: Int? = nil,
        pure: Bool = false,
        aggregate: Aggregate.Type)
    {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .aggregate { Aggregate() }
    }
}

extension Database {
    /// Registers a function or an aggregate on this connection. To register
    /// it on every connection of a queue or pool, call this from
    /// ``Configuration/prepareDatabase(_:)``.
    public func add(function: DatabaseFunction) {
        var flags = SQLITE_UTF8
        if function.isPure { flags |= SQLITE_DETERMINISTIC }
        let userData = Unmanaged.passUnretained(function).toOpaque()
        let code: CInt
        switch function.kind {
        case .function:
            code = sqlite3_create_function_v2(
                handle, function.name, CInt(function.argumentCount ?? -1), flags, userData,
                { sqliteContext, argumentCount, arguments in
                    let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(sqliteContext)!).takeUnretainedValue()
                    guard case .function(let body) = function.kind else { preconditionFailure("a function registered as one") }
                    do {
                        let result = try body(DatabaseFunction.values(argumentCount, arguments))
                        (result?.databaseValue ?? .null).setResult(of: sqliteContext!)
                    } catch {
                        DatabaseFunction.report(error, to: sqliteContext)
                    }
                }, nil, nil, nil)
        case .aggregate:
            code = sqlite3_create_function_v2(
                handle, function.name, CInt(function.argumentCount ?? -1), flags, userData, nil,
                { sqliteContext, argumentCount, arguments in
                    guard let state = DatabaseAggregateState.of(sqliteContext) else { return }
                    do {
                        try state.aggregate.step(DatabaseFunction.values(argumentCount, arguments))
                    } catch {
                        // SQLite stops the statement: the next call is the final one.
                        state.hasFailed = true
                        DatabaseFunction.report(error, to: sqliteContext)
                    }
                },
                { sqliteContext in
                    guard let state = DatabaseAggregateState.of(sqliteContext) else { return }
                    defer { state.release() }
                    guard !state.hasFailed else { return }
                    do {
                        let result = try state.aggregate.finalize()
                        (result?.databaseValue ?? .null).setResult(of: sqliteContext!)
                    } catch {
                        DatabaseFunction.report(error, to: sqliteContext)
                    }
                }, nil)
        }
        guard code == SQLITE_OK else {
            // Only a misuse fails here (an invalid name or argument
            // count): a programmer error, as in GRDB.
            fatalError("\(DatabaseError(resultCode: code, message: lastErrorMessage))")
        }
        // SQLite holds an unretained pointer: keep the function alive.
        functionBoxes[function.identity] = function
    }

    /// Unregisters a function or an aggregate.
    public func remove(function: DatabaseFunction) {
        sqlite3_create_function_v2(handle, function.name, CInt(function.argumentCount ?? -1), SQLITE_UTF8,
                                   nil, nil, nil, nil, nil)
        functionBoxes.removeValue(forKey: function.identity)
    }
}

extension DatabaseFunction {
    /// The arguments of a call.
    fileprivate static func values(_ count: CInt, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
        (0..<Int(count)).map { DatabaseValue(sqliteValue: arguments![$0]!) }
    }

    /// Fails the call with `error`: a ``DatabaseError``'s code, and its
    /// message if it has one (SQLite's text for the code otherwise), or any
    /// other error's description.
    fileprivate static func report(_ error: any Error, to sqliteContext: OpaquePointer?) {
        if let error = error as? DatabaseError {
            if let message = error.message { sqlite3_result_error(sqliteContext, message, -1) }
            sqlite3_result_error_code(sqliteContext, error.extendedResultCode.rawValue)
        } else {
            sqlite3_result_error(sqliteContext, "\(error)", -1)
        }
    }
}
