import Foundation

extension SyncSchema {
    /// Reads a declaration file in one pass of ``StrictJSON/Reader``, as
    /// the protocol's messages are read: its format first, wherever the
    /// file has it, then every member, each key known (a misspelled rule
    /// is an error, never a rule silently dropped), none twice, each value
    /// of its type. Throws ``SyncSchemaError``: for the first element that
    /// is not a declaration's, by its JSON path, line and column; for a
    /// format this program does not read; then for the first rule that the
    /// declaration breaks.
    public init(json: Data) throws(SyncSchemaError) {
        var unsupportedFormat: Int64?
        let tables: [SyncTable]
        do throws(StrictJSON.Violation) {
            tables = try StrictJSON.Reader.reading(json) { json throws(StrictJSON.Violation) in
                var reading = DeclarationReading(json)
                do throws(StrictJSON.Violation) {
                    return try reading.declaredTables()
                } catch {
                    unsupportedFormat = reading.unsupportedFormat
                    throw error
                }
            }
        } catch {
            if let unsupportedFormat { throw .unsupportedFormat(Int(clamping: unsupportedFormat)) }
            throw .malformed(path: error.path, at: error.location, reason: error.message)
        }
        try self.init(tables: tables)
    }

    /// The declaration as a file: what ``init(json:)`` reads back equal.
    /// A server view (``serverView``) writes its declaration.
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let declaration = declaration
        // Encoding these plain values cannot fail.
        return try! encoder.encode(Declaration(format: declaration.format, tables: declaration.tables.map(DeclaredTable.init)))
    }
}

/// A declaration read by ``StrictJSON/Reader``: its tables, each column
/// with its rules. A member that may be left out may also be `null`, as if
/// left out.
private struct DeclarationReading: VersionedObjectReading {
    typealias Violation = StrictJSON.Violation

    static let versionKey = "format"
    /// The keys that each object of a declaration may have: an error
    /// names them beside a key it may not.
    static let keys = ["format", "tables"]
    static let tableKeys = ["name", "primaryKey", "conflicts", "columns"]
    /// Format 2's keys of a table besides those, and format 3's.
    static let tableKeysSinceFormat2 = ["access"]
    static let tableKeysSinceFormat3 = ["endToEnd"]
    static let accessKeys = ["rule", "writers", "column", "group", "user"]
    static let columnKeys = [
        "name", "type", "required", "trimmed", "maximumLength", "maximumBytes", "allowsControlCharacters", "minimum", "maximum", "references",
    ]
    static let referenceKeys = ["table", "onDelete"]

    var json: StrictJSON.Reader
    /// The format that the file gives, when this program does not read it.
    private(set) var unsupportedFormat: Int64?
    /// The file's format, once read (it is read first).
    private var format: Int64 = 1
    private var tables: [SyncTable]?

    init(_ json: StrictJSON.Reader) {
        self.json = json
    }

    mutating func declaredTables() throws(Violation) -> [SyncTable] {
        try readMembers()
        guard let tables else { throw json.missing("tables") }
        return tables
    }

    mutating func readVersion() throws(Violation) {
        let format = try json.integer()
        guard SyncSchema.formats.contains(Int(clamping: format)) else {
            unsupportedFormat = format
            throw json.violation("format \(format); this program reads formats \(SyncSchema.formats.lowerBound) to \(SyncSchema.formats.upperBound)")
        }
        self.format = format
    }

    mutating func readMember(_ key: String) throws(Violation) {
        switch key {
        case "tables":
            var tables: [SyncTable] = []
            var array = try json.beginArray()
            while try json.nextElement(&array) != nil { tables.append(try table()) }
            self.tables = tables
        default: throw json.unknownKey(among: Self.keys)
        }
    }

    private mutating func table() throws(Violation) -> SyncTable {
        var name: String?, primaryKey: String?, conflicts: SyncConflictPolicy?, columns: [SyncColumn]?, access: SyncTableAccess?
        var isEndToEnd = false
        var object = try json.beginObject()
        while let key = try json.nextKey(&object) {
            switch key {
            case "name": name = try json.string()
            case "primaryKey": primaryKey = try json.string()
            case "conflicts": conflicts = try json.choice("a conflict policy")
            case "columns":
                var read: [SyncColumn] = []
                var array = try json.beginArray()
                while try json.nextElement(&array) != nil { read.append(try column()) }
                columns = read
            case "access" where format >= 2: access = try json.null() ? nil : try self.access()
            case "endToEnd" where format >= 3: isEndToEnd = try json.null() ? false : try json.boolean()
            default:
                throw json.unknownKey(among: Self.tableKeys + (format >= 2 ? Self.tableKeysSinceFormat2 : [])
                    + (format >= 3 ? Self.tableKeysSinceFormat3 : []))
            }
        }
        guard let name else { throw json.missing("name") }
        guard let primaryKey else { throw json.missing("primaryKey") }
        guard let conflicts else { throw json.missing("conflicts") }
        guard let columns else { throw json.missing("columns") }
        return SyncTable(name: name, primaryKey: primaryKey, conflicts: conflicts, columns: columns, access: access, isEndToEnd: isEndToEnd)
    }

    /// A table's `access`: its rule, and the rule's members or columns.
    private mutating func access() throws(Violation) -> SyncTableAccess {
        var rule: SyncTableAccess.Rule?, writers: [String]?, column: String?, group: String?, user: String?
        var object = try json.beginObject()
        while let key = try json.nextKey(&object) {
            switch key {
            case "rule": rule = try json.choice("an access rule")
            case "writers":
                var read: [String] = []
                var array = try json.beginArray()
                while try json.nextElement(&array) != nil { read.append(try json.string()) }
                writers = read
            case "column": column = try json.string()
            case "group": group = try json.string()
            case "user": user = try json.string()
            default: throw json.unknownKey(among: Self.accessKeys)
            }
        }
        guard let rule else { throw json.missing("rule") }
        // Each rule's own keys, and no other's: a key of another rule
        // would be ignored without a word.
        let given = [("writers", writers != nil), ("column", column != nil), ("group", group != nil), ("user", user != nil)]
        let access: SyncTableAccess
        switch rule {
        case .shared:
            guard let writers else { throw json.missing("writers") }
            access = .shared(writers: writers)
        case .owner:
            access = .owner
        case .group:
            guard let column else { throw json.missing("column") }
            access = .group(column: column)
        case .membership:
            guard let group else { throw json.missing("group") }
            guard let user else { throw json.missing("user") }
            access = .membership(group: group, user: user)
        }
        if let stray = given.first(where: { $0.1 && !access.keys.contains($0.0) }) {
            throw json.violation("the access rule \(rule.rawValue) takes no \"\(stray.0)\"")
        }
        return access
    }

    private mutating func column() throws(Violation) -> SyncColumn {
        var name: String?, type: SyncColumnType?, isRequired: Bool?, isTrimmed: Bool?, maximumLength: Int64?, maximumBytes: Int64?
        var allowsControlCharacters: Bool?, minimum: Int64?, maximum: Int64?, references: SyncReference?
        var object = try json.beginObject()
        while let key = try json.nextKey(&object) {
            switch key {
            case "name": name = try json.string()
            case "type": type = try json.choice("a column type")
            case "required": isRequired = try json.null() ? nil : try json.boolean()
            case "trimmed": isTrimmed = try json.null() ? nil : try json.boolean()
            case "maximumLength": maximumLength = try json.null() ? nil : try json.integer()
            case "maximumBytes": maximumBytes = try json.null() ? nil : try json.integer()
            case "allowsControlCharacters": allowsControlCharacters = try json.null() ? nil : try json.boolean()
            case "minimum": minimum = try json.null() ? nil : try json.integer()
            case "maximum": maximum = try json.null() ? nil : try json.integer()
            case "references": references = try json.null() ? nil : try reference()
            default: throw json.unknownKey(among: Self.columnKeys)
            }
        }
        guard let name else { throw json.missing("name") }
        guard let type else { throw json.missing("type") }
        return SyncColumn(
            name: name, type: type, isRequired: isRequired ?? false, isTrimmed: isTrimmed ?? false,
            maximumLength: maximumLength.map(Int.init), maximumBytes: maximumBytes.map(Int.init),
            allowsControlCharacters: allowsControlCharacters ?? false, minimum: minimum, maximum: maximum, references: references)
    }

    private mutating func reference() throws(Violation) -> SyncReference {
        var table: String?, onDelete: SyncReference.DeleteAction?
        var object = try json.beginObject()
        while let key = try json.nextKey(&object) {
            switch key {
            case "table": table = try json.string()
            case "onDelete": onDelete = try json.choice("a delete action")
            default: throw json.unknownKey(among: Self.referenceKeys)
            }
        }
        guard let table else { throw json.missing("table") }
        guard let onDelete else { throw json.missing("onDelete") }
        return SyncReference(table: table, onDelete: onDelete)
    }
}

private extension StrictJSON.Reader {
    /// A string that names a case of `Value`, such as a column's type; for
    /// any other, `"string" is not a column type: give one of uuid, text, …`.
    mutating func choice<Value: RawRepresentable & CaseIterable>(_ kind: String) throws(StrictJSON.Violation) -> Value
    where Value.RawValue == String {
        let text = try string()
        guard let value = Value(rawValue: text) else {
            let cases = Value.allCases.map(\.rawValue).joined(separator: ", ")
            throw violation("\(String(reflecting: String(text.prefix(40)))) is not \(kind): give one of \(cases)")
        }
        return value
    }

    /// The error of a key that an object of a declaration does not have.
    func unknownKey(among keys: [String]) -> StrictJSON.Violation {
        violation("unknown key (known: \(keys.sorted().joined(separator: ", ")))")
    }
}

/// A JSON key of a declaration, as ``SyncSchema/json()`` writes it.
private struct DeclarationKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private extension KeyedEncodingContainer where Key == DeclarationKey {
    mutating func put<Value: Encodable>(_ value: Value?, _ key: String) throws {
        try encodeIfPresent(value, forKey: DeclarationKey(stringValue: key))
    }
}

/// A declaration as its file has it.
private struct Declaration: Encodable {
    var format: Int
    var tables: [DeclaredTable]

    init(format: Int, tables: [DeclaredTable]) {
        self.format = format
        self.tables = tables
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        try object.put(format, "format")
        try object.put(tables, "tables")
    }
}

private struct DeclaredTable: Encodable {
    var table: SyncTable

    init(_ table: SyncTable) {
        self.table = table
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        try object.put(table.name, "name")
        try object.put(table.primaryKey, "primaryKey")
        try object.put(table.conflicts, "conflicts")
        try object.put(table.columns.map(DeclaredColumn.init), "columns")
        try object.put(table.access.map(DeclaredAccess.init), "access")
        try object.put(table.isEndToEnd ? true : nil, "endToEnd")
    }
}

private struct DeclaredAccess: Encodable {
    var access: SyncTableAccess

    init(_ access: SyncTableAccess) {
        self.access = access
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        switch access {
        case .shared(let writers):
            try object.put(SyncTableAccess.Rule.shared.rawValue, "rule")
            try object.put(writers, "writers")
        case .owner:
            try object.put(SyncTableAccess.Rule.owner.rawValue, "rule")
        case .group(let column):
            try object.put(SyncTableAccess.Rule.group.rawValue, "rule")
            try object.put(column, "column")
        case .membership(let group, let user):
            try object.put(SyncTableAccess.Rule.membership.rawValue, "rule")
            try object.put(group, "group")
            try object.put(user, "user")
        }
    }
}

private struct DeclaredColumn: Encodable {
    var column: SyncColumn

    init(_ column: SyncColumn) {
        self.column = column
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

private struct DeclaredReference: Encodable {
    var reference: SyncReference

    init(_ reference: SyncReference) {
        self.reference = reference
    }

    func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: DeclarationKey.self)
        try object.put(reference.table, "table")
        try object.put(reference.onDelete, "onDelete")
    }
}
