import Foundation

/// The messages of the key directory (Docs/SyncProtocol.md, "Keys"), read
/// and written as the engine's other messages: strict JSON, the
/// protocol's version first, each key known, each text bounded.
///
/// ```swift
/// let body = SyncKeyMessages.identityKeyRequest(publicKey: identity.publicKey.text)   // PUT /v1/keys/identity
/// let keys = try SyncKeyMessages.wrappedKeys(from: answer)                            // GET /v1/keys/wrapped
/// ```
public enum SyncKeyMessages {
    /// The longest text of a public key, a wrapped key, a partition or a
    /// user's name that the directory keeps: a key is some 100 bytes of
    /// base64, a name a token's `sub`.
    public static let maximumTextLength = 1_024
    /// The most keys in one message.
    public static let maximumKeys = 1_000

    /// `{"protocolVersion":1,"publicKey":"…"}`.
    public static func identityKeyRequest(publicKey: String) -> Data {
        message { $0.member("publicKey") { $0.appendString(publicKey) } }
    }

    /// `{"protocolVersion":1,"status":"…"}`: what a write did.
    public static func status(_ status: String) -> Data {
        message { $0.member("status") { $0.appendString(status) } }
    }

    /// `{"protocolVersion":1,"status":"…","user":"…"}`: the answer to an
    /// identity key request, which names the user the server took the key
    /// for (the token's `sub`), whose own partition a device seals under.
    public static func identityAnswer(status: String, user: String) -> Data {
        message { text in
            text.member("status") { $0.appendString(status) }
            text.member("user") { $0.appendString(user) }
        }
    }

    /// The user of ``identityAnswer(status:user:)``.
    public static func identityAnswerUser(from data: Data) throws(SyncMessageError) -> String {
        do {
            return try StrictJSON.Reader.reading(data) { json throws(StrictJSON.Violation) in
                var reading = IdentityAnswerReading(json: json)
                try reading.readMembers()
                guard reading.status != nil else { throw reading.json.missing("status") }
                guard let user = reading.user else { throw reading.json.missing("user") }
                return user
            }
        } catch {
            throw SyncMessageError(error)
        }
    }

    /// `{"protocolVersion":1,"identities":[{"publicKey":"…","user":"…"}]}`.
    public static func identityKeys(_ keys: [SyncIdentityKey]) -> Data {
        message { text in
            text.member("identities") { text in
                text.appendArray(keys) { text, key in
                    text.appendObject(["publicKey": key.publicKey, "user": key.user]) { $0.appendString($1) }
                }
            }
        }
    }

    /// `{"protocolVersion":1,"keys":[{"epoch":1,"partition":"…","recipient":"…","sender":"…","wrapped":"…"}]}`;
    /// without their senders, as a device sends them (the server takes the
    /// sender from the request's token).
    public static func wrappedKeys(_ keys: [SyncWrappedKey], withSenders: Bool) -> Data {
        message { text in
            text.member("keys") { text in
                text.appendArray(keys) { text, key in
                    text.append("{\"epoch\":")
                    text.appendInteger(key.epoch)
                    var members = ["partition": key.partition, "recipient": key.recipient, "wrapped": key.wrapped]
                    if withSenders { members["sender"] = key.sender }
                    for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                        text.append(",")
                        text.appendString(name)
                        text.append(":")
                        text.appendString(value)
                    }
                    text.append("}")
                }
            }
        }
    }

    /// The public key of an identity key request.
    public static func publicKey(from data: Data) throws(SyncMessageError) -> String {
        try read(data, member: "publicKey") { json throws(StrictJSON.Violation) in try json.boundedText() }
    }

    /// The identity keys of ``identityKeys(_:)``.
    public static func identityKeys(from data: Data) throws(SyncMessageError) -> [SyncIdentityKey] {
        try read(data, member: "identities") { json throws(StrictJSON.Violation) in
            try json.boundedArray { json throws(StrictJSON.Violation) in
                var user: String?, publicKey: String?
                var object = try json.beginObject()
                while let key = try json.nextKey(&object) {
                    switch key {
                    case "user": user = try json.boundedText()
                    case "publicKey": publicKey = try json.boundedText()
                    default: throw json.violation("unknown key")
                    }
                }
                guard let user else { throw json.missing("user") }
                guard let publicKey else { throw json.missing("publicKey") }
                return SyncIdentityKey(user: user, publicKey: publicKey)
            }
        }
    }

    /// The wrapped keys of ``wrappedKeys(_:withSenders:)``: with their
    /// senders (an answer), or each given `sender` (a request, which has
    /// none: a sender in it is refused).
    public static func wrappedKeys(from data: Data, sender: String? = nil) throws(SyncMessageError) -> [SyncWrappedKey] {
        try read(data, member: "keys") { json throws(StrictJSON.Violation) in
            try json.boundedArray { json throws(StrictJSON.Violation) in
                var partition: String?, epoch: Int64?, recipient: String?, sent: String?, wrapped: String?
                var object = try json.beginObject()
                while let key = try json.nextKey(&object) {
                    switch key {
                    case "partition": partition = try json.boundedText()
                    case "epoch":
                        let value = try json.integer()
                        guard (1...Int64(UInt32.max)).contains(value) else { throw json.violation("not an epoch (1 to \(UInt32.max))") }
                        epoch = value
                    case "recipient": recipient = try json.boundedText()
                    case "sender" where sender == nil: sent = try json.boundedText()
                    case "wrapped": wrapped = try json.boundedText()
                    default: throw json.violation("unknown key")
                    }
                }
                guard let partition else { throw json.missing("partition") }
                guard let epoch else { throw json.missing("epoch") }
                guard let recipient else { throw json.missing("recipient") }
                guard let from = sender ?? sent else { throw json.missing("sender") }
                guard let wrapped else { throw json.missing("wrapped") }
                return SyncWrappedKey(partition: partition, epoch: epoch, recipient: recipient, sender: from, wrapped: wrapped)
            }
        }
    }

    private static func message(_ members: (inout SyncJSONText) -> Void) -> Data {
        var text = SyncJSONText()
        text.append("{\"protocolVersion\":")
        text.appendInteger(Int64(SyncMessages.protocolVersion))
        members(&text)
        text.append("}")
        return Data(text.bytes)
    }

    /// Reads a message whose one member besides the version is `member`.
    private static func read<Value>(_ data: Data, member: String,
                                    _ value: @escaping (inout StrictJSON.Reader) throws(StrictJSON.Violation) -> Value) throws(SyncMessageError) -> Value {
        do {
            return try StrictJSON.Reader.reading(data) { json throws(StrictJSON.Violation) in
                var reading = KeyMessageReading(json: json, member: member, value: value)
                try reading.readMembers()
                guard let read = reading.read else { throw reading.json.missing(member) }
                return read
            }
        } catch {
            throw SyncMessageError(error)
        }
    }
}

/// A key message: its version, then its one member.
private struct KeyMessageReading<Value>: SyncMessageReading {
    var json: StrictJSON.Reader
    let member: String
    let value: (inout StrictJSON.Reader) throws(StrictJSON.Violation) -> Value
    var read: Value?

    mutating func readMember(_ key: String) throws(StrictJSON.Violation) {
        guard key == member else { throw json.violation("unknown key") }
        read = try value(&json)
    }
}

/// ``SyncKeyMessages/identityAnswer(status:user:)``: its version, status
/// and user.
private struct IdentityAnswerReading: SyncMessageReading {
    var json: StrictJSON.Reader
    var status: String?
    var user: String?

    mutating func readMember(_ key: String) throws(StrictJSON.Violation) {
        switch key {
        case "status": status = try json.boundedText()
        case "user": user = try json.boundedText()
        default: throw json.violation("unknown key")
        }
    }
}

private extension SyncJSONText {
    /// `,"name":` then the member's value.
    mutating func member(_ name: String, _ value: (inout SyncJSONText) -> Void) {
        append(",")
        appendString(name)
        append(":")
        value(&self)
    }
}

private extension StrictJSON.Reader {
    /// A non-empty string of at most ``SyncKeyMessages/maximumTextLength`` bytes.
    mutating func boundedText() throws(StrictJSON.Violation) -> String {
        let text = try string()
        guard !text.isEmpty, text.utf8.count <= SyncKeyMessages.maximumTextLength else {
            throw violation("not a text of 1 to \(SyncKeyMessages.maximumTextLength) bytes")
        }
        return text
    }

    /// An array of at most ``SyncKeyMessages/maximumKeys`` elements.
    mutating func boundedArray<Element>(
        _ element: (inout StrictJSON.Reader) throws(StrictJSON.Violation) -> Element
    ) throws(StrictJSON.Violation) -> [Element] {
        var elements: [Element] = []
        var array = try beginArray()
        while try nextElement(&array) != nil {
            guard elements.count < SyncKeyMessages.maximumKeys else { throw violation("more than \(SyncKeyMessages.maximumKeys) elements") }
            elements.append(try element(&self))
        }
        return elements
    }
}
