import Foundation

extension SyncChangeBatch {
    /// A push read in one pass by ``StrictJSON/Reader``, as a page is
    /// (``SyncPage/Reading``): the numbers of a row's values keep how they
    /// were written (`100` an integer, `1e2` or `100.0` a real, which an
    /// integer column refuses), and each change is checked by its table's
    /// declaration once its members are read.
    struct Reading: SyncMessageReading {
        typealias Violation = StrictJSON.Violation

        var json: StrictJSON.Reader
        private let schema: SyncSchema
        private var server: UUID?
        private var changes: [SyncChange]?
        private var mutationIDs: Set<UUID> = []
        private var rows: Set<SyncListedRow> = []

        init(_ json: StrictJSON.Reader, schema: SyncSchema) {
            self.json = json
            self.schema = schema
        }

        mutating func batch() throws(Violation) -> SyncChangeBatch {
            try readMembers()
            guard let changes else { throw json.missing("changes") }
            return SyncChangeBatch(changes: changes, server: server)
        }

        mutating func readMember(_ key: String) throws(Violation) {
            switch key {
            case "server": server = try json.null() ? nil : json.uuid()
            case "changes": changes = try readChanges()
            default: throw json.violation("unknown key")
            }
        }

        private mutating func readChanges() throws(Violation) -> [SyncChange] {
            var changes: [SyncChange] = []
            var array = try json.beginArray()
            while try json.nextElement(&array) != nil {
                guard changes.count < SyncChangeBatch.maximumChanges else {
                    throw Violation(path: "$.changes", "more than \(SyncChangeBatch.maximumChanges) changes")
                }
                changes.append(try readChange())
            }
            return changes
        }

        /// One change, checked by the declaration of its table: a table it
        /// has, the values of an upsert checked by their columns (a whole
        /// row in a `server-wins` table, the columns the change touched in
        /// one merged by column), none in a delete, a positive base
        /// version, no mutation id and no row twice in the batch.
        private mutating func readChange() throws(Violation) -> SyncChange {
            var object = try json.beginObject()
            var mutationID: UUID?, tableName: String?, id: String?, operationName: String?, baseVersion: Int64?
            var values: [String: SyncJSONScalar]?
            while let key = try json.nextKey(&object) {
                switch key {
                case "mutationID": mutationID = try json.uuid()
                case "table": tableName = try json.string()
                case "id": id = try json.string()
                case "operation": operationName = try json.string()
                case "baseVersion": baseVersion = try json.null() ? nil : json.version()
                case "values": values = try json.null() ? nil : json.rowValues()
                default: throw json.violation("unknown key")
                }
            }
            let path = json.pathText
            guard let mutationID else { throw json.missing("mutationID") }
            guard let tableName else { throw json.missing("table") }
            guard let id else { throw json.missing("id") }
            guard let operationName else { throw json.missing("operation") }
            guard let table = schema.table(tableName) else {
                throw Violation(path: "\(path).table", "\(tableName) is not a table this server syncs: update its declaration first")
            }
            guard let operation = SyncChange.Operation(rawValue: operationName) else {
                throw Violation(path: "\(path).operation", "neither upsert nor delete")
            }
            switch (operation, values) {
            case (.upsert, nil): throw Violation(path: "\(path).values", "missing")
            case (.delete, _?): throw Violation(path: "\(path).values", "not allowed in a delete")
            case (.upsert, _?), (.delete, nil): break
            }
            let row: SyncRow
            do {
                row = try SyncMessages.row(table, id: id, values: values ?? [:],
                                           carrying: table.conflicts == .serverWins && operation == .upsert ? .whole : .changed, path: path)
            } catch {
                throw Violation(error)
            }
            guard mutationIDs.insert(mutationID).inserted else {
                throw Violation(path: "\(path).mutationID", "\(mutationID.uuidString) appears twice")
            }
            guard rows.insert(SyncListedRow(table: table.name, id: row.id)).inserted else {
                throw Violation(path: "\(path).id", "\(row.id.uuidString) of \(table.name) appears twice: send one change per row in a batch")
            }
            return SyncChange(mutationID: mutationID, operation: operation, row: row, baseVersion: baseVersion)
        }
    }
}
