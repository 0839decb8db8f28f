import Foundation

extension SyncSchema {
    /// Reads a declaration file. Throws ``SyncSchemaError``: for JSON that
    /// is not a declaration (an unknown key included: a misspelled rule is
    /// an error, never a rule silently dropped), by its JSON path, and for
    /// the first rule that the declaration breaks.
    public init(json: Data) throws(SyncSchemaError) {
        // A key twice (JSONDecoder would keep one of them silently), a
        // number that is not an integer.
        do {
            try StrictJSON.check(json)
        } catch {
            throw .malformed(path: error.path, reason: error.message)
        }
        let declaration: Declaration
        do {
            declaration = try JSONDecoder().decode(Declaration.self, from: json)
        } catch let error as DecodingError {
            throw Self.malformed(error)
        } catch {
            throw .malformed(path: "$", reason: "\(error)")
        }
        guard declaration.format == Self.format else { throw .unsupportedFormat(declaration.format) }
        try self.init(tables: declaration.tables.map(\.table))
    }

    /// The declaration as a file: what ``init(json:)`` reads back equal.
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain values cannot fail.
        return try! encoder.encode(Declaration(format: Self.format, tables: tables.map(DeclaredTable.init)))
    }

    private static func malformed(_ error: DecodingError) -> SyncSchemaError {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("$") { path, key in key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)" }
        }
        switch error {
        case .dataCorrupted(let context):
            return .malformed(path: path(context.codingPath), reason: context.codingPath.isEmpty ? "not valid JSON" : context.debugDescription)
        case .keyNotFound(let key, let context):
            return .malformed(path: path(context.codingPath + [key]), reason: "missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return .malformed(path: path(context.codingPath), reason: context.debugDescription)
        @unknown default:
            return .malformed(path: "$", reason: "\(error)")
        }
    }
}

/// A JSON key, for containers whose keys are checked against a list.
private struct DeclarationKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private extension Decoder {
    /// The object's container, once every key is known.
    func object(_ allowed: Set<String>) throws -> KeyedDecodingContainer<DeclarationKey> {
        let container = try container(keyedBy: DeclarationKey.self)
        if let unknown = container.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [unknown],
                debugDescription: "unknown key (known: \(allowed.sorted().joined(separator: ", ")))"))
        }
        return container
    }
}

private extension KeyedDecodingContainer where Key == DeclarationKey {
    func value<Value: Decodable>(_ key: String) throws -> Value {
        try decode(Value.self, forKey: DeclarationKey(stringValue: key))
    }

    func optional<Value: Decodable>(_ key: String) throws -> Value? {
        try decodeIfPresent(Value.self, forKey: DeclarationKey(stringValue: key))
    }
}

private extension KeyedEncodingContainer where Key == DeclarationKey {
    mutating func put<Value: Encodable>(_ value: Value?, _ key: String) throws {
        try encodeIfPresent(value, forKey: DeclarationKey(stringValue: key))
    }
}

private struct Declaration: Codable {
    var format: Int
    var tables: [DeclaredTable]

    init(format: Int, tables: [DeclaredTable]) {
        self.format = format
        self.tables = tables
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.object(["format", "tables"])
        format = try object.value("format")
        tables = try object.value("tables")
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        try object.put(format, "format")
        try object.put(tables, "tables")
    }
}

private struct DeclaredTable: Codable {
    var table: SyncTable

    init(_ table: SyncTable) {
        self.table = table
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.object(["name", "primaryKey", "conflicts", "columns"])
        table = SyncTable(
            name: try object.value("name"), primaryKey: try object.value("primaryKey"), conflicts: try object.value("conflicts"),
            columns: (try object.value("columns") as [DeclaredColumn]).map(\.column))
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        try object.put(table.name, "name")
        try object.put(table.primaryKey, "primaryKey")
        try object.put(table.conflicts, "conflicts")
        try object.put(table.columns.map(DeclaredColumn.init), "columns")
    }
}

private struct DeclaredColumn: Codable {
    var column: SyncColumn

    init(_ column: SyncColumn) {
        self.column = column
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.object([
            "name", "type", "required", "trimmed", "maximumLength", "maximumBytes", "allowsControlCharacters", "minimum", "maximum",
            "references",
        ])
        column = SyncColumn(
            name: try object.value("name"), type: try object.value("type"), isRequired: try object.optional("required") ?? false,
            isTrimmed: try object.optional("trimmed") ?? false, maximumLength: try object.optional("maximumLength"),
            maximumBytes: try object.optional("maximumBytes"),
            allowsControlCharacters: try object.optional("allowsControlCharacters") ?? false,
            minimum: try object.optional("minimum"), maximum: try object.optional("maximum"),
            references: (try object.optional("references") as DeclaredReference?)?.reference)
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        try object.put(column.name, "name")
        try object.put(column.type, "type")
        try object.put(column.isRequired ? true : nil, "required")
        try object.put(column.isTrimmed ? true : nil, "trimmed")
        try object.put(column.maximumLength, "maximumLength")
        try object.put(column.type == .text && column.maximumBytes != column.maximumLength.map { $0 * 4 } ? column.maximumBytes : nil, "maximumBytes")
        try object.put(column.allowsControlCharacters ? true : nil, "allowsControlCharacters")
        try object.put(column.minimum, "minimum")
        try object.put(column.maximum, "maximum")
        try object.put(column.references.map(DeclaredReference.init), "references")
    }
}

private struct DeclaredReference: Codable {
    var reference: SyncReference

    init(_ reference: SyncReference) {
        self.reference = reference
    }

    init(from decoder: any Decoder) throws {
        let object = try decoder.object(["table", "onDelete"])
        reference = SyncReference(table: try object.value("table"), onDelete: try object.value("onDelete"))
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        try object.put(reference.table, "table")
        try object.put(reference.onDelete, "onDelete")
    }
}
