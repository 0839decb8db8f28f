import Foundation

extension SyncPage {
    /// A page read in one pass by ``StrictJSON/Reader``: each row is
    /// checked by its table's declaration as it is read, so a page's rows
    /// are never held twice (as JSON values and as rows), and its bytes are
    /// read once, not once by a parser and once by a check. Members before
    /// `protocolVersion` are read after it: another version's page may be
    /// anything.
    struct Reading: SyncMessageReading {
        typealias Violation = StrictJSON.Violation

        var json: StrictJSON.Reader
        private let schema: SyncSchema
        private var kind: Kind?
        private var isComplete: Bool?
        private var cursor: String?
        private var next: String?
        private var rows: [SyncServerRow]?
        private var tombstones: [SyncTombstone]?
        private var epochs: [SyncEpoch]?
        private var digests: [SyncTableDigest]?
        /// The rows and tombstones read: a row listed twice (two states, or
        /// a state and a tombstone) would leave whichever comes last, and
        /// the page is refused instead.
        private var listed = Set<SyncListedRow>()

        init(_ json: StrictJSON.Reader, schema: SyncSchema) {
            self.json = json
            self.schema = schema
        }

        mutating func page() throws(StrictJSON.Violation) -> SyncPage {
            try readMembers()
            guard let kind else { throw json.missing("kind") }
            guard let isComplete else { throw json.missing("complete") }
            guard let cursor else { throw json.missing("cursor") }
            guard let rows else { throw json.missing("rows") }
            guard let tombstones else { throw json.missing("tombstones") }
            if !isComplete, next == nil { throw Violation(path: "$.next", "missing on a page that is not the last") }
            return SyncPage(kind: kind, isComplete: isComplete, cursor: cursor, next: next, rows: rows, tombstones: tombstones,
                            epochs: epochs, digests: digests)
        }

        /// A member of the page, by its key.
        mutating func readMember(_ key: String) throws(Violation) {
            switch key {
            case "kind":
                guard let kind = Kind(rawValue: try json.string()) else { throw json.violation("neither snapshot nor delta") }
                self.kind = kind
            case "complete": isComplete = try json.boolean()
            case "cursor": cursor = try json.string()
            case "next": next = try json.null() ? nil : json.string()
            case "rows": rows = try readRows()
            case "tombstones": tombstones = try readTombstones()
            case "epochs": epochs = try json.null() ? nil : readEpochs()
            case "digests": digests = try json.null() ? nil : readDigests()
            default: throw json.violation("unknown key")
            }
        }

        /// The rows of the tables the declaration has, checked by it.
        private mutating func readRows() throws(Violation) -> [SyncServerRow] {
            var rows: [SyncServerRow] = []
            var array = try json.beginArray()
            while try json.nextElement(&array) != nil {
                var object = try json.beginObject()
                var table: String?, id: String?, version: Int64?, values: [String: SyncJSONScalar]?
                while let key = try json.nextKey(&object) {
                    switch key {
                    case "table": table = try json.string()
                    case "id": id = try json.string()
                    case "version": version = try json.integer()
                    case "values": values = try json.rowValues()
                    default: throw json.violation("unknown key")
                    }
                }
                guard let table else { throw json.missing("table") }
                guard let id else { throw json.missing("id") }
                guard let version else { throw json.missing("version") }
                guard let values else { throw json.missing("values") }
                guard version > 0 else { throw Violation(path: "\(json.pathText).version", "not positive") }
                guard let declared = schema.table(table) else { continue }
                let row: SyncRow
                do {
                    row = try SyncMessages.serverRow(declared, id: id, values: values, path: json.pathText)
                } catch {
                    throw Violation(error)
                }
                try listOnce(table, row.id)
                rows.append(SyncServerRow(row: row, version: version))
            }
            return rows
        }

        /// The tombstones of the tables the declaration has.
        private mutating func readTombstones() throws(Violation) -> [SyncTombstone] {
            var tombstones: [SyncTombstone] = []
            var array = try json.beginArray()
            while try json.nextElement(&array) != nil {
                var object = try json.beginObject()
                var table: String?, id: UUID?, version: Int64?
                while let key = try json.nextKey(&object) {
                    switch key {
                    case "table": table = try json.string()
                    case "id": id = try json.uuid()
                    case "version": version = try json.version()
                    default: throw json.violation("unknown key")
                    }
                }
                guard let table else { throw json.missing("table") }
                guard let id else { throw json.missing("id") }
                guard let version else { throw json.missing("version") }
                guard schema.table(table) != nil else { continue }
                try listOnce(table, id)
                tombstones.append(SyncTombstone(table: table, id: id, version: version))
            }
            return tombstones
        }

        private mutating func readEpochs() throws(Violation) -> [SyncEpoch] {
            var epochs: [SyncEpoch] = []
            var array = try json.beginArray()
            while try json.nextElement(&array) != nil {
                var object = try json.beginObject()
                var epoch: String?, start: Int64?
                while let key = try json.nextKey(&object) {
                    switch key {
                    case "epoch": epoch = try json.string()
                    case "start": start = try json.integer()
                    default: throw json.violation("unknown key")
                    }
                }
                guard let epoch else { throw json.missing("epoch") }
                guard let start else { throw json.missing("start") }
                epochs.append(SyncEpoch(epoch: epoch, start: start))
            }
            return epochs
        }

        /// The digests of the tables the declaration has.
        private mutating func readDigests() throws(Violation) -> [SyncTableDigest] {
            var digests: [SyncTableDigest] = []
            var array = try json.beginArray()
            while try json.nextElement(&array) != nil {
                let digest = try json.digest()
                if schema.table(digest.table) != nil { digests.append(digest) }
            }
            return digests
        }

        /// Refuses a row that the page lists a second time, at the path of
        /// its id.
        private mutating func listOnce(_ table: String, _ id: UUID) throws(Violation) {
            guard listed.insert(SyncListedRow(table: table, id: id)).inserted else {
                throw Violation(path: "\(json.pathText).id", "\(id.uuidString) appears twice")
            }
        }
    }
}
