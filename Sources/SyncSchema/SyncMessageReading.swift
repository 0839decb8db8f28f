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
        var values: [String: SyncJSONScalar] = [:]
        var object = try beginObject()
        while let column = try nextKey(&object) { values[column] = try scalar() }
        return values
    }
}

extension StrictJSON.Violation {
    /// A message's element that a rule of the protocol refuses, found as it
    /// is read.
    init(_ error: SyncMessageError) {
        self.init(path: error.path, error.message)
    }
}
