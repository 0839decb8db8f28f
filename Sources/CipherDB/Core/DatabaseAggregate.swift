import CSQLCipher

/// A custom SQL aggregate: a new value for each aggregation, stepped with
/// the arguments of each row, then finalized into the result.
///
/// ```swift
/// struct MySum: DatabaseAggregate {
///     var sum: Int = 0
///
///     mutating func step(_ dbValues: [DatabaseValue]) {
///         if let int = Int.fromDatabaseValue(dbValues[0]) { sum += int }
///     }
///
///     func finalize() -> (any DatabaseValueConvertible)? { sum }
/// }
///
/// let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: MySum.self)
/// db.add(function: mySum)
/// try Int.fetchOne(db, sql: "SELECT mySum(score) FROM player") // the total
/// ```
public protocol DatabaseAggregate: SendableMetatype {
    /// Creates an aggregate: once for each aggregation (each group of a
    /// `GROUP BY`, each call in a select list).
    init()

    /// Takes the arguments of one row: as many values as the SQL call has.
    mutating func step(_ dbValues: [DatabaseValue]) throws

    /// The result of the aggregation.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

/// An aggregation in progress: its aggregate, kept in the memory that
/// SQLite gives each aggregation (`sqlite3_aggregate_context`) from its
/// first step to its final call, which releases it.
final class DatabaseAggregateState {
    var aggregate: any DatabaseAggregate
    /// Whether a step threw: the final call then reports nothing more.
    var hasFailed = false

    private init(_ aggregate: any DatabaseAggregate) {
        self.aggregate = aggregate
    }

    /// The state of the aggregation that `sqliteContext` runs, made at its
    /// first call (a step, or the final call of an aggregation of no row);
    /// nil, and the call failed with `SQLITE_NOMEM`, if SQLite has no
    /// memory for it.
    static func of(_ sqliteContext: OpaquePointer?) -> DatabaseAggregateState? {
        // SQLite zeroes the memory it gives at the first call, and gives
        // the same memory at the next ones.
        guard let memory = sqlite3_aggregate_context(sqliteContext, CInt(MemoryLayout<UnsafeMutableRawPointer?>.size)) else {
            sqlite3_result_error_nomem(sqliteContext)
            return nil
        }
        let slot = memory.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
        if let stored = slot.pointee {
            return Unmanaged<DatabaseAggregateState>.fromOpaque(stored).takeUnretainedValue()
        }
        let function = Unmanaged<DatabaseFunction>.fromOpaque(sqlite3_user_data(sqliteContext)!).takeUnretainedValue()
        guard case .aggregate(let makeAggregate) = function.kind else { preconditionFailure("an aggregate registered as one") }
        let state = DatabaseAggregateState(makeAggregate())
        slot.pointee = Unmanaged.passRetained(state).toOpaque()
        return state
    }

    /// Ends the aggregation (its final call): SQLite frees its memory
    /// after it.
    func release() {
        Unmanaged.passUnretained(self).release()
    }
}
