import Foundation

/// A reader, in one pass of ``StrictJSON/Reader``, of a JSON object whose
/// version says how the rest of it reads (a message's `protocolVersion`, a
/// declaration's `format`): its version first, wherever the object has it,
/// then each member as it comes. Members before the version are read after
/// it: an object of another version may be anything, and is refused as
/// such, not for its first odd member.
protocol VersionedObjectReading {
    var json: StrictJSON.Reader { get set }

    /// The key of the member that holds the version.
    static var versionKey: String { get }

    /// Reads the version's value, and throws for one that this program
    /// does not read.
    mutating func readVersion() throws(StrictJSON.Violation)

    /// Reads the member `key` of the object, whose version is checked.
    mutating func readMember(_ key: String) throws(StrictJSON.Violation)
}

extension VersionedObjectReading {
    /// Reads the object, and checks that nothing follows it.
    mutating func readMembers() throws(StrictJSON.Violation) {
        var object = try json.beginObject()
        var isVersionRead = false
        var waiting: [(key: String, offset: Int)] = []
        while let key = try json.nextKey(&object) {
            if key == Self.versionKey {
                try readVersion()
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
        guard isVersionRead else { throw json.missing(Self.versionKey) }
    }
}
