import Foundation

// MARK: - Calling a function from the query interface

extension DatabaseFunction {
    /// An SQL expression that calls this function, or this aggregate (an
    /// aggregate expression, as `SUM(…)` is).
    ///
    /// ```swift
    /// let square = DatabaseFunction("square", argumentCount: 1, pure: true) { values in
    ///     Int.fromDatabaseValue(values[0]).map { $0 * $0 }
    /// }
    /// db.add(function: square)
    /// // SELECT square("score") FROM "player"
    /// let squares = try Int.fetchAll(db, Player.select(square(Column("score"))))
    /// ```
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        let arguments = arguments.map(\.sqlExpression)
        switch kind {
        case .function: return SQLExpression(.function(name, arguments))
        case .aggregate: return SQLExpression(.aggregate(name, arguments, isDistinct: false))
        }
    }
}

// MARK: - String functions registered on every connection

extension DatabaseFunction {
    /// `swiftCapitalizedString(x)`: Foundation's `String.capitalized`, NULL
    /// for a value that is not a string. Used by
    /// ``SQLSpecificExpressible/capitalized``.
    public static let capitalize = stringFunction("swiftCapitalizedString") { $0.capitalized }

    /// `swiftLowercaseString(x)`: Swift's `String.lowercased()`, NULL for a
    /// value that is not a string. Used by ``SQLSpecificExpressible/lowercased``,
    /// which, unlike SQLite's `LOWER`, lowercases every Unicode letter.
    public static let lowercase = stringFunction("swiftLowercaseString") { $0.lowercased() }

    /// `swiftUppercaseString(x)`: Swift's `String.uppercased()`, NULL for a
    /// value that is not a string. Used by ``SQLSpecificExpressible/uppercased``.
    public static let uppercase = stringFunction("swiftUppercaseString") { $0.uppercased() }

    /// `swiftLocalizedCapitalizedString(x)`: Foundation's
    /// `String.localizedCapitalized`, NULL for a value that is not a string.
    public static let localizedCapitalize = stringFunction("swiftLocalizedCapitalizedString") { $0.localizedCapitalized }

    /// `swiftLocalizedLowercaseString(x)`: Foundation's
    /// `String.localizedLowercase`, NULL for a value that is not a string.
    public static let localizedLowercase = stringFunction("swiftLocalizedLowercaseString") { $0.localizedLowercase }

    /// `swiftLocalizedUppercaseString(x)`: Foundation's
    /// `String.localizedUppercase`, NULL for a value that is not a string.
    public static let localizedUppercase = stringFunction("swiftLocalizedUppercaseString") { $0.localizedUppercase }

    /// The functions that every connection registers when it opens.
    static let builtIns: [DatabaseFunction] = [
        .capitalize, .lowercase, .uppercase,
        .localizedCapitalize, .localizedLowercase, .localizedUppercase,
    ]

    private static func stringFunction(_ name: String, _ transform: @escaping @Sendable (String) -> String) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map(transform)
        }
    }
}

extension SQLSpecificExpressible {
    /// The expression capitalized by Foundation's `String.capitalized`:
    /// `swiftCapitalizedString(name)`.
    ///
    /// ```swift
    /// let names = try String.fetchAll(db, Player.select(Column("name").capitalized))
    /// ```
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(sqlExpression) }

    /// The expression lowercased by Swift's `String.lowercased()`:
    /// `swiftLowercaseString(name)`.
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(sqlExpression) }

    /// The expression uppercased by Swift's `String.uppercased()`:
    /// `swiftUppercaseString(name)`.
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(sqlExpression) }

    /// The expression capitalized by Foundation's
    /// `String.localizedCapitalized`: `swiftLocalizedCapitalizedString(name)`.
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(sqlExpression) }

    /// The expression lowercased by Foundation's `String.localizedLowercase`:
    /// `swiftLocalizedLowercaseString(name)`.
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(sqlExpression) }

    /// The expression uppercased by Foundation's `String.localizedUppercase`:
    /// `swiftLocalizedUppercaseString(name)`.
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(sqlExpression) }
}
