import Foundation

/// A reader of one of the engine's messages (a page, a push, its answer):
/// its version is the protocol's.
protocol SyncMessageReading: VersionedObjectReading {}

extension SyncMessageReading {
    static var versionKey: String { "protocolVersion" }

    mutating func readVersion() throws(StrictJSON.Violation) {
        let version = try json.integer()
        guard version == SyncMessages.protocolVersion else {
            let error = SyncMessageError.unsupportedVersion(Int(clamping: version), reads: SyncMessages.protocolVersion)
            throw StrictJSON.Violation(path: error.path, error.message)
        }
    }
}

extension StrictJSON.Reader {
    /// A UUID written as a string, in either case.
    mutating func uuid() throws(StrictJSON.Violation) -> UUID {
        guard let uuid = UUID(parsing: try string()) else { throw violation("not a UUID") }
        return uuid
    }

    /// A version of the server's counter: a positive integer.
    mutating func version() throws(StrictJSON.Violation) -> Int64 {
        let version = try integer()
        guard version > 0 else { throw violation("not positive") }
        return version
    }

    /// A row's values, of any column: the declaration reads them.
    mutating func rowValues() throws(StrictJSON.Violation) -> [String: SyncJSONScalar] {
        try object { json throws(StrictJSON.Violation) in try json.scalar() }
    }

    /// A row, `{"id": "…", "values": {…}}`, its values read by `values`.
    mutating func row(
        values: (inout StrictJSON.Reader) throws(StrictJSON.Violation) -> [String: SyncJSONScalar]
    ) throws(StrictJSON.Violation) -> SyncRowJSON {
        var members = try beginObject()
        var id: String?, rowValues: [String: SyncJSONScalar]?
        while let key = try nextKey(&members) {
            switch key {
            case "id": id = try string()
            case "values": rowValues = try values(&self)
            default: throw violation("unknown key")
            }
        }
        guard let id else { throw missing("id") }
        guard let rowValues else { throw missing("values") }
        return SyncRowJSON(id: id, values: rowValues)
    }

    /// An object whose every member `value` reads.
    mutating func object<Value>(
        _ value: (inout StrictJSON.Reader) throws(StrictJSON.Violation) -> Value
    ) throws(StrictJSON.Violation) -> [String: Value] {
        var members = try beginObject()
        var object = [String: Value](minimumCapacity: 4)
        while let key = try nextKey(&members) { object[key] = try value(&self) }
        return object
    }
}

extension StrictJSON.Violation {
    /// A message's element that a rule of the protocol refuses, found as it
    /// is read.
    init(_ error: SyncMessageError) {
        self.init(path: error.path, error.message)
    }
}
