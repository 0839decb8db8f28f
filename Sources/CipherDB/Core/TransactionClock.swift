import CSQLCipher
import Foundation

/// The clock that dates transactions: see ``Database/transactionDate``.
///
/// ```swift
/// var config = Configuration()
/// config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 0) }
/// ```
public protocol TransactionClock: Sendable {
    /// The date of a transaction that begins on `db`.
    func now(_ db: Database) throws -> Date
}

extension TransactionClock where Self == DefaultTransactionClock {
    /// The system clock.
    public static var `default`: Self { DefaultTransactionClock() }
}

extension TransactionClock where Self == CustomTransactionClock {
    /// A clock that calls `now`, for tests and for apps that keep their
    /// own time.
    ///
    /// ```swift
    /// config.transactionClock = .custom { _ in fixedDate }
    /// ```
    public static func custom(_ now: @escaping @Sendable (Database) throws -> Date) -> Self {
        CustomTransactionClock(now)
    }
}

/// The system clock: `Date()`.
public struct DefaultTransactionClock: TransactionClock {
    public func now(_ db: Database) throws -> Date {
        Date()
    }
}

/// A clock that calls a closure: see ``TransactionClock/custom(_:)``.
public struct CustomTransactionClock: TransactionClock {
    private let clock: @Sendable (Database) throws -> Date

    public init(_ now: @escaping @Sendable (Database) throws -> Date) {
        self.clock = now
    }

    public func now(_ db: Database) throws -> Date {
        try clock(db)
    }
}

extension Database {
    /// The date of the current transaction, the same at every call until it
    /// ends: the configuration's ``Configuration/transactionClock`` read
    /// when the transaction began. Outside of a transaction, the clock's
    /// date at each call. Throws the clock's error.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     player.creationDate = try db.transactionDate
    ///     try player.insert(db)
    /// }
    /// ```
    public var transactionDate: Date {
        get throws {
            if isInsideTransaction, let transactionDateResult {
                return try transactionDateResult.get()
            }
            return try configuration.transactionClock.now(self)
        }
    }

    /// Dates the transaction that a statement began, and forgets the date of
    /// the one it ended. Called after each statement that begins or ends a
    /// transaction, and after each failed one: a transaction can also end
    /// without a statement that says so (a constraint that rolls it back).
    @inline(__always)
    func updateTransactionDate() {
        if sqlite3_get_autocommit(handle) == 0 {
            if transactionDateResult == nil {
                transactionDateResult = Result { try configuration.transactionClock.now(self) }
            }
        } else if transactionDateResult != nil {
            transactionDateResult = nil
        }
    }
}
