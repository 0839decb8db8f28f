import CipherDB
import Players
import TerminalText

/// Players as a table with aligned columns (ID and score right-aligned,
/// the name left-aligned), written as they are read: the widths come
/// first from one aggregate query, so that no row is held, whatever their
/// number. The widths are those of all the players, not only of the
/// window printed: the aggregate needs no sort, and the pages of a
/// listing (`--limit 50 --offset 50`) line up.
struct PlayerTable {
    let idWidth: Int
    let nameWidth: Int
    let scoreWidth: Int

    /// Writes the players of `players` (id, name and score first), or
    /// `No players.`
    static func write(_ players: QueryInterfaceRequest<Player>, _ db: Database, to output: inout BufferedOutput) throws {
        guard let table = try PlayerTable(db) else {
            try output.append("No players.\n")
            return
        }
        let rows = try Row.fetchCursor(db, players)
        guard var row = try rows.next() else {
            try output.append("No players.\n")
            return
        }
        try output.appendSpaces(table.idWidth - 2)
        try output.append("ID  NAME")
        try output.appendSpaces(table.nameWidth - 4)
        try output.appendSpaces(2 + table.scoreWidth - 5)
        try output.append("SCORE\n")
        while true {
            try output.appendDecimal(row[0], width: table.idWidth)
            try output.appendSpaces(2)
            let name: String = row[1]
            // Printable ASCII, as most names are: its bytes, unescaped.
            if name.utf8.allSatisfy(Self.isPrintableASCII) {
                try output.append(name.utf8)
                try output.appendSpaces(table.nameWidth - name.utf8.count)
            } else {
                let escaped = PrintableText.escaping(name)
                try output.append(escaped.utf8)
                try output.appendSpaces(table.nameWidth - escaped.count)
            }
            try output.appendSpaces(2)
            try output.appendDecimal(row[2], width: table.scoreWidth)
            try output.append(CollectionOfOne(UInt8(ascii: "\n")))
            guard let next = try rows.next() else { return }
            row = next
        }
    }

    /// The widths of the columns for all the players, headers included,
    /// or nil when there is none.
    init?(_ db: Database) throws {
        db.add(function: Self.printedWidth)
        // A name of printable ASCII (no character outside ' '...'~') is
        // as wide as its length: the function runs for the others only.
        let row = try Row.fetchOne(db, sql: """
            SELECT COUNT(*), MAX(length(id)), MAX(length(score)),
                   MAX(CASE WHEN name GLOB '*[^ -~]*' THEN \(Self.printedWidth.name)(name) ELSE length(name) END)
            FROM player
            """)
        guard let row, row[0] as Int > 0 else { return nil }
        idWidth = max(2, row[1])
        scoreWidth = max(5, row[2])
        nameWidth = max(4, row[3])
    }

    static func isPrintableASCII(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte)
    }

    /// The characters a name takes in the table, escaped as it is printed.
    static let printedWidth = DatabaseFunction("players_printed_width", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map { PrintableText.escaping($0).count }
    }
}
