import CipherDB
import Players

/// Players as JSON Lines, one object per line, written as they are read:
/// `{"id":1,"name":"Arthur","score":42,"uuid":"…","version":7}`, with the
/// keys sorted and `version` absent for a player never synced, as
/// ``JSONOutput`` writes a ``Player``.
enum PlayerJSONLines {
    /// Writes the players of `players` (id, name, score, uuid, version).
    static func write(_ players: QueryInterfaceRequest<Player>, _ db: Database, to output: inout BufferedOutput) throws {
        let rows = try Row.fetchCursor(db, players)
        while let row = try rows.next() {
            try output.append(#"{"id":"#)
            try output.appendDecimal(row[0])
            try output.append(#","name":"#)
            try appendString(row[1], to: &output)
            try output.append(#","score":"#)
            try output.appendDecimal(row[2])
            try output.append(#","uuid":"#)
            // 36 characters: the one string of a row that a small string
            // cannot hold.
            try appendString(row[3], to: &output)
            if let version = row[4] as Int64? {
                try output.append(#","version":"#)
                try output.appendDecimal(version)
            }
            try output.append("}\n")
        }
    }

    /// Appends a JSON string: printable ASCII without a quote or a
    /// backslash as it is, anything else as ``JSONOutput`` escapes it.
    private static func appendString(_ text: String, to output: inout BufferedOutput) throws {
        if text.utf8.allSatisfy({ PlayerTable.isPrintableASCII($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            try output.append(CollectionOfOne(UInt8(ascii: "\"")))
            try output.append(text.utf8)
            try output.append(CollectionOfOne(UInt8(ascii: "\"")))
        } else {
            try output.append(try JSONOutput.line(text))
        }
    }
}
