import Foundation

/// A row as JSON, before its table's declaration reads it:
/// `{"id": "…", "values": {"title": "Groceries", "body": null}}`. Which
/// table it belongs to is said by the message around it.
///
/// ```swift
/// let row = try note.row(from: JSONDecoder().decode(SyncRowJSON.self, from: data))
/// ```
public struct SyncRowJSON: Codable, Sendable, Equatable {
    public var id: String
    public var values: [String: SyncJSONScalar]

    public init(id: String, values: [String: SyncJSONScalar]) {
        self.id = id
        self.values = values
    }
}

/// A value of a row as JSON: `null`, `true` or `false`, an integer, a
/// number with a fraction (a `real` column's), or a string (a `text`
/// column's, or a `uuid` column's in its canonical form).
public enum SyncJSONScalar: Codable, Sendable, Equatable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each failed try throws (and builds) an error: the most common
        // values come first. The kinds are disjoint, except that an
        // integer also reads as a Double: Int64 comes before it.
        if container.decodeNil() {
            self = .null
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let integer = try? container.decode(Int64.self) {
            self = .integer(integer)
        } else if let boolean = try? container.decode(Bool.self) {
            self = .boolean(boolean)
        } else if let real = try? container.decode(Double.self) {
            self = .real(real)
        } else {
            // An object or an array: the error of a value that is no scalar.
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .boolean(let boolean): try container.encode(boolean)
        case .integer(let integer): try container.encode(integer)
        case .real(let real): try container.encode(real)
        case .string(let string): try container.encode(string)
        }
    }
}

extension SyncJSONScalar: CustomStringConvertible {
    /// The value as JSON writes it: `"Shopping"`, `42`, `2.5`, `true`,
    /// `null`; what an app shows of a conflict's values.
    ///
    /// ```swift
    /// conflict.localValues?["title"]?.description   // "\"Shopping\""
    /// ```
    public var description: String {
        var text = SyncJSONText()
        text.appendScalar(self)
        return text.text
    }
}

extension SyncRow {
    /// The row as JSON, which ``SyncTable/row(from:carrying:)`` reads back
    /// equal.
    public var json: SyncRowJSON {
        SyncRowJSON(id: id.uuidString, values: values.mapValues(SyncJSONScalar.init))
    }
}

extension SyncJSONScalar {
    /// A value as JSON.
    public init(_ value: SyncValue) {
        switch value {
        case .null: self = .null
        case .uuid(let uuid): self = .string(uuid.uuidString)
        case .text(let text): self = .string(text)
        case .integer(let integer): self = .integer(integer)
        case .real(let real): self = .real(real)
        case .boolean(let boolean): self = .boolean(boolean)
        }
    }

    /// The value of a column of `type`. JSON of another type gives a
    /// value that the column refuses, so that its error is the column's
    /// own sentence (``SyncColumn/validated(_:)``).
    func value(for type: SyncColumnType) -> SyncValue {
        switch (type, self) {
        case (_, .null): .null
        case (.uuid, .string(let string)): UUID(parsing: string).map(SyncValue.uuid) ?? .text(string)
        case (.real, .integer(let integer)): .real(Double(integer))
        case (_, .string(let string)): .text(string)
        case (_, .boolean(let boolean)): .boolean(boolean)
        case (_, .integer(let integer)): .integer(integer)
        case (_, .real(let real)): .real(real)
        }
    }
}

extension SyncTable {
    /// The row that JSON describes, checked as ``row(id:values:carrying:)``
    /// checks one.
    public func row(from json: SyncRowJSON, carrying columns: RowColumns = .whole) throws(SyncRowError) -> SyncRow {
        guard let id = UUID(parsing: json.id) else { throw .invalidID(table: name, json.id) }
        var values: [String: SyncValue] = [:]
        for (name, scalar) in json.values {
            // An unknown column keeps a value that row(id:values:) refuses by name.
            values[name] = scalar.value(for: column(name)?.type ?? .text)
        }
        return try row(id: id, values: values, carrying: columns)
    }

    /// The row that a server's JSON describes, read by a declaration that
    /// may be older than the server's: a value of a column it does not
    /// declare, or of the primary key, is left out (it cannot store it;
    /// the server keeps it), the others are checked as
    /// ``row(id:values:carrying:)`` checks a whole row, with the same
    /// errors. One dictionary per row: a page carries thousands.
    public func row(fromServer json: SyncRowJSON) throws(SyncRowError) -> SyncRow {
        guard let id = UUID(parsing: json.id) else { throw .invalidID(table: name, json.id) }
        return try row(fromServer: id, values: json.values)
    }

    /// The row of `id` whose values a server's JSON describes, read as
    /// ``row(fromServer:)`` reads one.
    public func row(fromServer id: UUID, values: [String: SyncJSONScalar]) throws(SyncRowError) -> SyncRow {
        SyncRow(table: name, id: id, values: try checkedValues(carrying: .whole) { column in
            values[column.name].map { $0.value(for: column.type) }
        })
    }

    /// The values of a row that a store wrote, read back from its JSON:
    /// each of a declared column other than the primary key, and of its
    /// type (``SyncColumn/typeChecked(_:)``); the rules of each value held
    /// when the store wrote it, after ``row(id:values:carrying:)``.
    public func storedValues(_ scalars: [String: SyncJSONScalar]) throws(SyncRowError) -> [String: SyncValue] {
        var values: [String: SyncValue] = [:]
        values.reserveCapacity(scalars.count)
        for (name, scalar) in scalars {
            if name == primaryKey { throw .primaryKeyAmongValues(table: self.name, column: name) }
            guard let column = column(name) else { throw .unknownColumn(table: self.name, column: name) }
            do {
                values[name] = try column.typeChecked(scalar.value(for: column.type))
            } catch {
                throw .invalidValue(table: self.name, error)
            }
        }
        return values
    }

    /// The row of values that ``storedValues(_:)`` read, as a message
    /// carries it, without checking them again.
    public func storedRow(id: UUID, values: [String: SyncValue]) -> SyncRow {
        SyncRow(table: name, id: id, values: values)
    }
}
