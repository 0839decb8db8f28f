import Foundation

/// The values bound to the parameters of a statement: positional (`?`),
/// named (`:name`, `$name`, `@name`), or both.
///
/// ```swift
/// try db.execute(
///     sql: "INSERT INTO player (name, score) VALUES (?, ?)",
///     arguments: ["Arthur", 1000])
/// try db.execute(
///     sql: "UPDATE player SET score = :score WHERE id = :id",
///     arguments: ["score": 1000, "id": 1])
/// ```
///
/// Arguments are hidden from error messages and traces unless the
/// connection was configured with ``Configuration/publicStatementArguments``.
///
/// See <https://www.sqlite.org/lang_expr.html#varparam>.
public struct StatementArguments: Hashable, Sendable {
    /// Positional values, consumed in order by `?` parameters, and by named
    /// parameters that have no named value.
    var values: [DatabaseValue] = []

    /// Named values, keyed by parameter name without its prefix.
    var namedValues = NamedValues()

    /// Whether there are no arguments at all.
    public var isEmpty: Bool { values.isEmpty && namedValues.isEmpty }

    /// Creates empty arguments.
    public init() {}

    /// Positional arguments from values already converted.
    init(values: [DatabaseValue]) {
        self.values = values
    }

    /// Creates positional arguments from a sequence of values.
    public init(_ sequence: some Sequence<(any DatabaseValueConvertible)?>) {
        values = sequence.map { $0?.databaseValue ?? .null }
    }

    /// Creates named arguments from a dictionary.
    public init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        namedValues = NamedValues(dictionary.mapValues { $0?.databaseValue ?? .null })
    }

    /// Creates named arguments from a dictionary of any values (such as
    /// an `NSDictionary`), or returns nil if a key is not a string or a
    /// value is not ``DatabaseValueConvertible`` (`NSNull` is NULL).
    ///
    /// ```swift
    /// let values: [AnyHashable: Any] = ["name": "Arthur", "score": 100]
    /// let arguments = StatementArguments(values)!
    /// try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)", arguments: arguments)
    /// ```
    public init?(_ dictionary: [AnyHashable: Any]) {
        var namedValues: [String: DatabaseValue] = [:]
        namedValues.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            guard let name = key as? String, let dbValue = DatabaseValue(anyValue: value) else { return nil }
            namedValues[name] = dbValue
        }
        self.namedValues = NamedValues(namedValues)
    }

    /// Creates positional arguments from an array of any values, or returns
    /// nil if one of them is not ``DatabaseValueConvertible``.
    public init?(_ array: [Any]) {
        var values: [DatabaseValue] = []
        values.reserveCapacity(array.count)
        for element in array {
            guard let dbValue = DatabaseValue(anyValue: element) else { return nil }
            values.append(dbValue)
        }
        self.values = values
    }

    /// Appends positional values, and replaces named values with those of
    /// `arguments`. Returns the named values that were replaced.
    @discardableResult
    public mutating func append(contentsOf arguments: StatementArguments) -> [String: DatabaseValue] {
        var replaced: [String: DatabaseValue] = [:]
        values.append(contentsOf: arguments.values)
        for (name, dbValue) in arguments.namedValues {
            if let old = namedValues.updateValue(dbValue, forKey: name) {
                replaced[name] = old
            }
        }
        return replaced
    }

    /// Concatenates two sets of arguments; a named value defined on both
    /// sides is a programmer error, as with `+=`.
    public static func + (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result += rhs
        return result
    }

    /// Appends `rhs` to `lhs`: positional values are concatenated, and a
    /// named value defined on both sides is a programmer error, which stops
    /// the program (use `&+` to let `rhs` override `lhs`).
    public static func += (lhs: inout StatementArguments, rhs: StatementArguments) {
        let replaced = lhs.append(contentsOf: rhs)
        precondition(replaced.isEmpty, "already defined statement argument: \(replaced.keys.sorted().joined(separator: ", "))")
    }

    /// Concatenates two sets of arguments; named values of `rhs` override
    /// those of `lhs`.
    ///
    /// ```swift
    /// let arguments: StatementArguments = ["name": "Arthur"] &+ ["name": "Barbara"]
    /// // ["name": "Barbara"]
    /// ```
    public static func &+ (lhs: StatementArguments, rhs: StatementArguments) -> StatementArguments {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    // MARK: - Binding

    /// Returns the values for the parameters of a statement, consuming the
    /// positional values it uses, so that the rest can feed the next
    /// statement of a multi-statement string.
    mutating func extractBindings(
        forParameterNames parameterNames: [String?],
        sql: String,
        allowingRemainingValues: Bool) throws -> [DatabaseValue]
    {
        var consumed = 0
        var bindings: [DatabaseValue] = []
        bindings.reserveCapacity(parameterNames.count)
        var hint = 0
        for name in parameterNames {
            if let name, let dbValue = namedValues.value(forName: name, hint: &hint) {
                bindings.append(dbValue)
            } else if consumed < values.count {
                bindings.append(values[consumed])
                consumed += 1
            } else if let name {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "missing statement argument: \(name)", sql: sql)
            } else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                    message: "wrong number of statement arguments: \(values.count)", sql: sql)
            }
        }
        if !allowingRemainingValues && consumed < values.count {
            throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                message: "wrong number of statement arguments: \(values.count)", sql: sql)
        }
        values.removeFirst(consumed)
        return bindings
    }
}

extension StatementArguments: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: (any DatabaseValueConvertible)?...) {
        // Each element is read where it is stored: iterating or mapping
        // would copy every existential through its value witnesses.
        values.reserveCapacity(elements.count)
        elements.withUnsafeBufferPointer { elements in
            for index in elements.indices {
                values.append(elements[index]?.databaseValue ?? .null)
            }
        }
    }
}

extension StatementArguments: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        namedValues.reserveCapacity(elements.count)
        // Read in place, as the array literal.
        elements.withUnsafeBufferPointer { elements in
            for index in elements.indices {
                namedValues[elements[index].0] = elements[index].1?.databaseValue ?? .null
            }
        }
    }
}

extension StatementArguments: CustomStringConvertible {
    /// The arguments, named ones first: `["Arthur", 1]`,
    /// `["name": "Arthur"]`.
    ///
    /// This shows the values: use it only where they may be seen.
    public var description: String {
        let named = namedValues.sorted { $0.key < $1.key }.map { "\(String(reflecting: $0.key)): \($0.value)" }
        let positional = values.map(\.description)
        return "[" + (named + positional).joined(separator: ", ") + "]"
    }
}

extension DatabaseValue {
    /// Converts a value of unknown type, or returns nil if it is not
    /// ``DatabaseValueConvertible``. `nil` optionals become NULL.
    init?(anyValue: Any) {
        if let convertible = anyValue as? any DatabaseValueConvertible {
            self = convertible.databaseValue
            return
        }
        // An `Any` holding `Optional.none` of a non-convertible type.
        let mirror = Mirror(reflecting: anyValue)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else {
                self = .null
                return
            }
            self.init(anyValue: wrapped)
            return
        }
        return nil
    }
}
