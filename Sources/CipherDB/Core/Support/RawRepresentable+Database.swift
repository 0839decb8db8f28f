// A type whose raw value goes to the database goes there as its raw value:
// declaring the conformance is enough.
//
//     enum Grape: String, DatabaseValueConvertible, StatementColumnConvertible {
//         case chardonnay, merlot
//     }

extension DatabaseValueConvertible where Self: RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap { self.init(rawValue: $0) }
    }
}

extension StatementColumnConvertible where Self: RawRepresentable, Self.RawValue: StatementColumnConvertible {
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }
}

extension StatementBinding where Self: RawRepresentable, Self.RawValue: StatementBinding {
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        rawValue.bind(to: sqliteStatement, at: index)
    }
}

extension SQLExpressible where Self: RawRepresentable, Self.RawValue: SQLExpressible {
    public var sqlExpression: SQLExpression {
        rawValue.sqlExpression
    }
}

extension SQLSelectable where Self: RawRepresentable, Self.RawValue: SQLSelectable {
    public var sqlSelection: SQLSelection {
        rawValue.sqlSelection
    }
}

extension SQLOrderingTerm where Self: RawRepresentable, Self.RawValue: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering {
        rawValue.sqlOrdering
    }
}
