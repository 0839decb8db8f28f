import Foundation

extension SyncStoredJSON {
    /// A row's values as a store keeps them (``text(_:)``), read by the
    /// one reader of the engine's JSON, ``StrictJSON/Reader``, as a
    /// message's row is read: an object of strings, integers, reals,
    /// booleans and nulls, no key twice. A server reads every stored row
    /// of every page it serves, so the text is read in one pass, without
    /// `JSONDecoder` (which cost about 10 µs a row).
    ///
    /// `-0` reads as the integer 0: it is how a `real` column's -0.0 is
    /// written, and `JSONDecoder`, which read the stores' rows until
    /// 2026-12-06, read it so; a stored row's values stay what they were.
    /// Every other number is read as a message's is, to the same value
    /// for its column as `JSONDecoder` gave (`1e+16` is a real here, an
    /// integer there: either way a `real` column's 1e16).
    ///
    /// ```swift
    /// try SyncStoredJSON.scalars(from: #"{"name":"Zoé","score":7}"#)   // ["name": .string("Zoé"), "score": .integer(7)]
    /// ```
    public static func scalars(from text: String) throws(StrictJSON.Violation) -> [String: SyncJSONScalar] {
        try StrictJSON.Reader.reading(text) { json throws(StrictJSON.Violation) in
            let scalars = try json.storedScalars()
            try json.end()
            return scalars
        }
    }

    /// A row (``text(_:)-(SyncRowJSON)``), its values read as
    /// ``scalars(from:)`` reads them.
    public static func row(from text: String) throws(StrictJSON.Violation) -> SyncRowJSON {
        try StrictJSON.Reader.reading(text) { json throws(StrictJSON.Violation) in
            let row = try json.row { json throws(StrictJSON.Violation) in try json.storedScalars() }
            try json.end()
            return row
        }
    }

    /// The digests a device keeps (``text(_:)-([SyncTableDigest])``).
    public static func digests(from text: String) throws(StrictJSON.Violation) -> [SyncTableDigest] {
        try StrictJSON.Reader.reading(text) { json throws(StrictJSON.Violation) in
            var digests: [SyncTableDigest] = []
            var array = try json.beginArray()
            while try json.nextElement(&array) != nil { digests.append(try json.digest()) }
            try json.end()
            return digests
        }
    }

    /// A JSON object of integers (the versions of a stored row's columns),
    /// read as ``scalars(from:)`` reads.
    public static func integers(from text: String) throws(StrictJSON.Violation) -> [String: Int64] {
        try object(text) { json throws(StrictJSON.Violation) in try json.integer() }
    }

    /// An object whose every member `value` reads, and nothing after it.
    private static func object<Value>(
        _ text: String, _ value: (inout StrictJSON.Reader) throws(StrictJSON.Violation) -> Value
    ) throws(StrictJSON.Violation) -> [String: Value] {
        try StrictJSON.Reader.reading(text) { json throws(StrictJSON.Violation) in
            let object = try json.object(value)
            try json.end()
            return object
        }
    }
}

extension StrictJSON.Reader {
    /// A stored row's values (``SyncStoredJSON/scalars(from:)``): `-0`
    /// reads as the integer 0.
    mutating func storedScalars() throws(StrictJSON.Violation) -> [String: SyncJSONScalar] {
        try object { json throws(StrictJSON.Violation) in
            let scalar = try json.scalar()
            if case .real(let real) = scalar, real == 0, real.sign == .minus { return .integer(0) }
            return scalar
        }
    }
}
