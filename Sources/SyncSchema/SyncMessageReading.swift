import Foundation

/// A reader of one of the engine's messages (a page, a push, its answer)
/// in one pass of ``StrictJSON/Reader``: its protocol version first,
/// wherever the object has it, then each member as it comes. Members
/// before `protocolVersion` are read after it: another version's message
/// may be anything, and is refused as such, not for its first odd member.
protocol SyncMessageReading {
    var json: StrictJSON.Reader { get set }

    /// Reads the member `key` of the message, whose version is checked.
    mutating func readMember(_ key: String) throws(StrictJSON.Violation)
}

extension SyncMessageReading {
    /// Reads the message's object, and checks that nothing follows it.
    mutating func readMembers() throws(StrictJSON.Violation) {
        var object = try json.beginObject()
        var isVersionRead = false
        var waiting: [(key: String, offset: Int)] = []
        while let key = try json.nextKey(&object) {
            if key == "protocolVersion" {
                let version = try json.integer()
                guard version == SyncMessages.protocolVersion else {
                    let error = SyncMessageError.unsupportedVersion(Int(clamping: version), reads: SyncMessages.protocolVersion)
                    throw StrictJSON.Violation(path: error.path, error.message)
                }
                isVersionRead = true
                for member in waiting {
                    let resumption = json.revisit(member.offset, key: member.key)
                    try readMember(member.key)
                    json.resume(resumption)
                }
            } else if isVersionRead {
                try readMember(key)
            } else {
                waiting.append((key, json.index))
                try json.skipValue()
            }
        }
        try json.end()
        guard isVersionRead else { throw json.missing("protocolVersion") }
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
