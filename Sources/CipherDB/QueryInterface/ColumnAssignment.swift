/// `column = value` in an `UPDATE` statement.
///
/// ```swift
/// try Player.updateAll(db, Column("score").set(to: 0))
/// try Player.filter(Column("team") == "red").updateAll(db, Column("score") += 10)
/// ```
///
/// See <https://www.sqlite.org/lang_update.html>.
public struct ColumnAssignment: Sendable {
    let columnName: String
    let value: SQLExpression

    func sql(_ context: SQLGenerationContext) throws -> String {
        columnName.quotedDatabaseIdentifier + " = " + (try value.sql(context))
    }
}

extension ColumnExpression {
    /// `column = value`.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value?.sqlExpression ?? .value(nil))
    }

    /// `column = column + value`.
    public static func += (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column + value)
    }

    /// `column = column - value`.
    public static func -= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column - value)
    }

    /// `column = column * value`.
    public static func *= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column * value)
    }

    /// `column = column / value`.
    public static func /= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column / value)
    }

    /// `column = column & value`.
    public static func &= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column & value)
    }

    /// `column = column | value`.
    public static func |= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column | value)
    }

    /// `column = column << value`.
    public static func <<= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column << value)
    }

    /// `column = column >> value`.
    public static func >>= (column: Self, value: some SQLExpressible) -> ColumnAssignment {
        column.set(to: column >> value)
    }
}

extension Database {
    /// How a statement resolves a constraint violation.
    ///
    /// See <https://www.sqlite.org/lang_conflict.html>.
    public enum ConflictResolution: String, Sendable {
        case rollback = "ROLLBACK"
        case abort = "ABORT"
        case fail = "FAIL"
        case ignore = "IGNORE"
        case replace = "REPLACE"
    }
}
