import Foundation

/// The tables an app syncs, declared once and read by both sides: the app
/// (its outbox, staging and merge) and the server (`--schema FILE`), which
/// thereby never needs the app's code.
///
/// A declaration is a JSON file (``init(json:)``); its rules are checked
/// when it is read (``SyncSchemaError``), so a declaration in hand is one
/// that both sides can serve.
///
/// ```swift
/// let schema = try SyncSchema(json: Data(contentsOf: URL(fileURLWithPath: "notes.schema.json")))
/// for table in schema.tablesInApplyOrder { … }   // parents before children
/// ```
///
/// ```json
/// {
///   "format": 1,
///   "tables": [
///     { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins",
///       "columns": [
///         { "name": "id", "type": "uuid", "required": true },
///         { "name": "name", "type": "text", "required": true, "trimmed": true, "maximumLength": 100 } ] },
///     { "name": "note", "primaryKey": "id", "conflicts": "merge-by-column",
///       "columns": [
///         { "name": "id", "type": "uuid", "required": true },
///         { "name": "notebook", "type": "uuid", "required": true,
///           "references": { "table": "notebook", "onDelete": "cascade" } },
///         { "name": "title", "type": "text", "required": true, "maximumLength": 200 },
///         { "name": "body", "type": "text", "maximumLength": 100000 } ] }
///   ]
/// }
/// ```
public struct SyncSchema: Sendable, Equatable {
    /// The versions of the declaration format that this program reads:
    /// 1; 2, which adds a table's `access` (``SyncTableAccess``); 3, which
    /// adds `endToEnd` (``SyncTable/isEndToEnd``). ``json()`` writes the
    /// first that holds the declaration.
    public static let formats = 1...3

    /// The tables, in the order of the declaration.
    public let tables: [SyncTable]

    /// The tables with their parents first: the order in which a merge
    /// inserts and updates rows (deletes go in the reverse order), so that
    /// every foreign key holds at each step.
    public let tablesInApplyOrder: [SyncTable]

    /// A declaration of these tables; throws the first rule it breaks.
    public init(tables: [SyncTable]) throws(SyncSchemaError) {
        // A declaration of nothing would sync nothing without a word.
        guard !tables.isEmpty else { throw .noTables }
        var names: Set<String> = []
        for table in tables {
            try table.check()
            guard names.insert(table.name).inserted else { throw .duplicateTable(table.name) }
        }
        let byName = Dictionary(uniqueKeysWithValues: tables.map { ($0.name, $0) })
        for table in tables {
            for column in table.columns {
                guard let reference = column.references else { continue }
                guard byName[reference.table] != nil else {
                    throw .unknownReferencedTable(table: table.name, column: column.name, referenced: reference.table)
                }
            }
        }
        for table in tables {
            try table.access?.check(table, among: byName)
            try table.checkEndToEnd()
        }
        self.tables = tables
        tablesInApplyOrder = try Self.parentsFirst(tables, byName)
        declared = nil
    }

    /// The tables of the declaration this is a view of (``serverView``,
    /// ``receivedView``), in their two orders; nil for a declaration.
    private let declared: (tables: [SyncTable], inApplyOrder: [SyncTable])?

    /// The declaration as a server stores and validates it: each
    /// end-to-end table as its ``SyncTable/serverView``, the others as
    /// they are. Not checked again: a view has the reserved
    /// ``SyncTable/sealedColumn``, and the same references and order. Its
    /// ``json()`` and ``declaration`` are the declaration's.
    public var serverView: SyncSchema {
        guard declared == nil, tables.contains(where: \.isEndToEnd) else { return self }
        return SyncSchema(tables: tables.map(\.serverView), inApplyOrder: tablesInApplyOrder.map(\.serverView),
                          declared: (tables, tablesInApplyOrder))
    }

    /// The declaration as a device reads a server's pages and answers
    /// (``SyncTable/receivedView``). Not checked again, as ``serverView``.
    public var receivedView: SyncSchema {
        guard declared == nil, tables.contains(where: \.isEndToEnd) else { return self }
        return SyncSchema(tables: tables.map(\.receivedView), inApplyOrder: tablesInApplyOrder.map(\.receivedView),
                          declared: (tables, tablesInApplyOrder))
    }

    /// The declaration: of a server view, the one it is the view of.
    public var declaration: SyncSchema {
        guard let declared else { return self }
        return SyncSchema(tables: declared.tables, inApplyOrder: declared.inApplyOrder, declared: nil)
    }

    private init(tables: [SyncTable], inApplyOrder: [SyncTable], declared: (tables: [SyncTable], inApplyOrder: [SyncTable])?) {
        self.tables = tables
        tablesInApplyOrder = inApplyOrder
        self.declared = declared
    }

    public static func == (lhs: SyncSchema, rhs: SyncSchema) -> Bool {
        lhs.tables == rhs.tables && lhs.declared?.tables == rhs.declared?.tables
    }

    /// The format of the declaration's file: the first that holds it.
    var format: Int {
        if tables.contains(where: \.isEndToEnd) { return 3 }
        return tables.contains { $0.access != nil } ? 2 : 1
    }

    /// The table named `name`.
    public func table(_ name: String) -> SyncTable? {
        tables.first { $0.name == name }
    }

    /// A depth-first order of the references; throws for a cycle, which no
    /// order of inserts could keep valid.
    private static func parentsFirst(_ tables: [SyncTable], _ byName: [String: SyncTable]) throws(SyncSchemaError) -> [SyncTable] {
        var ordered: [SyncTable] = []
        var done: Set<String> = []
        var visiting: [String] = []
        func visit(_ table: SyncTable) throws(SyncSchemaError) {
            if done.contains(table.name) { return }
            if let start = visiting.firstIndex(of: table.name) {
                throw .referenceCycle(Array(visiting[start...]) + [table.name])
            }
            visiting.append(table.name)
            for column in table.columns {
                // A table that references itself (a tree) is inserted in the
                // order of its rows' own references, not a cycle of tables.
                guard let parent = column.references?.table, parent != table.name, let referenced = byName[parent] else { continue }
                try visit(referenced)
            }
            visiting.removeLast()
            done.insert(table.name)
            ordered.append(table)
        }
        for table in tables { try visit(table) }
        return ordered
    }
}
