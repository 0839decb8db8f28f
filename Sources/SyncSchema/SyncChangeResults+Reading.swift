import Foundation

extension SyncChangeResults {
    /// The answer to a push read in one pass by ``StrictJSON/Reader``, each
    /// result checked against the change it answers as it is read.
    struct Reading: SyncMessageReading {
        typealias Violation = StrictJSON.Violation

        var json: StrictJSON.Reader
        private let changes: [SyncChange]
        private let schema: SyncSchema
        private var results: [SyncPushResult]?

        init(_ json: StrictJSON.Reader, answering changes: [SyncChange], schema: SyncSchema) {
            self.json = json
            self.changes = changes
            self.schema = schema
        }

        mutating func answer() throws(Violation) -> SyncChangeResults {
            try readMembers()
            guard let results else { throw json.missing("results") }
            guard results.count == changes.count else {
                throw Violation(path: "$.results", "\(results.count) results for \(changes.count) changes")
            }
            return SyncChangeResults(results: results)
        }

        mutating func readMember(_ key: String) throws(Violation) {
            switch key {
            case "results":
                var results: [SyncPushResult] = []
                var array = try json.beginArray()
                while let index = try json.nextElement(&array) {
                    guard index < changes.count else { throw Violation(path: "$.results", "more results than the \(changes.count) changes") }
                    results.append(try readResult(answering: changes[index], index: index))
                }
                self.results = results
            default: throw json.violation("unknown key")
            }
        }

        /// The result of change `index`: its mutation id, a known status, a
        /// positive version, which an applied upsert must have (the device
        /// bases the row's next change on it), a row for a conflict or a
        /// refused change only, with its version, and a reason for a
        /// refused change only.
        private mutating func readResult(answering change: SyncChange, index: Int) throws(Violation) -> SyncPushResult {
            var object = try json.beginObject()
            var mutationID: UUID?, statusName: String?, version: Int64?, row: SyncRowJSON?, refusal: String?
            while let key = try json.nextKey(&object) {
                switch key {
                case "mutationID": mutationID = try json.uuid()
                case "status": statusName = try json.string()
                case "reason": refusal = try json.string()
                case "version": version = try json.null() ? nil : json.version()
                case "row": row = try json.null() ? nil : json.row { json throws(Violation) in try json.rowValues() }
                default: throw json.violation("unknown key")
                }
            }
            let path = json.pathText
            guard let mutationID else { throw json.missing("mutationID") }
            guard let statusName else { throw json.missing("status") }
            guard mutationID == change.mutationID else { throw Violation(path: "\(path).mutationID", "not the mutation id of change \(index)") }
            let status: SyncPushResult.Status
            switch statusName {
            case "applied": status = .applied
            case "conflict": status = .conflict
            case "refused": status = .refused
            default: throw Violation(path: "\(path).status", "none of applied, conflict, refused")
            }
            guard (status == .refused) == (refusal != nil) else {
                throw Violation(path: "\(path).reason", status == .refused ? "missing for a refused change" : "only a refused change has one")
            }
            if status == .applied, change.operation == .upsert, version == nil {
                throw Violation(path: "\(path).version", "missing for an applied upsert, whose row takes the version the server gave it")
            }
            guard let row else { return SyncPushResult(mutationID: mutationID, status: status, version: version, refusal: refusal) }
            guard status != .applied else { throw Violation(path: "\(path).row", "only a conflict or a refused change has one") }
            guard row.id.uppercased() == change.row.id.uuidString else { throw Violation(path: "\(path).row.id", "not the id of change \(index)") }
            guard let table = schema.table(change.row.table) else {
                throw Violation(path: "\(path).row", "a row of \(change.row.table), which this declaration lacks")
            }
            guard version != nil else { throw Violation(path: "\(path).version", "missing beside a row") }
            do {
                let serverRow = try SyncMessages.serverRow(table, id: row.id, values: row.values, path: "\(path).row")
                return SyncPushResult(mutationID: mutationID, status: status, version: version, serverRow: serverRow, refusal: refusal)
            } catch {
                throw Violation(error)
            }
        }
    }
}
