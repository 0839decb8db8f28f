/// An end-to-end table (``SyncTable/isEndToEnd``): which of its columns
/// stay in the clear for the server to route rows, the one that holds the
/// others sealed, and the rules such a table keeps.
extension SyncTable {
    /// The column of an end-to-end table's server view that holds the
    /// sealed value of its other columns (base64 of SyncSealing's
    /// `SealedValue`). Its prefix is reserved: no declared column has it.
    public static let sealedColumn = "sync_sealed"

    /// The longest text of a sealed value: base64 of its header (54
    /// bytes), its tag (16) and 16 MiB of columns padded to their size
    /// class (17,301,504 bytes).
    public static let maximumSealedLength = (54 + 16 + 17_301_504 + 2) / 3 * 4

    /// The columns an end-to-end table keeps in the clear: its primary key,
    /// and its group column when its rule has one.
    public var clearColumns: [SyncColumn] {
        columns.filter { $0.name == primaryKey || $0.name == access?.groupColumn }
    }

    /// The clear columns but the primary key: those a digest of an
    /// end-to-end table covers before its sealed value's header
    /// (``SyncTableDigest/columns(of:)``).
    public var clearValueColumns: [SyncColumn] {
        clearColumns.filter { $0.name != primaryKey }
    }

    /// The columns an end-to-end table seals, in the declaration's order.
    public var sealedColumns: [SyncColumn] {
        columns.filter { $0.name != primaryKey && $0.name != access?.groupColumn }
    }

    /// The table as a server stores and validates it: for an end-to-end
    /// table, its clear columns and ``sealedColumn``; any other table as
    /// it is.
    public var serverView: SyncTable {
        guard isEndToEnd else { return self }
        // Base64, which its reader checks byte by byte: no scan for
        // control characters on top.
        let sealed = SyncColumn(name: Self.sealedColumn, type: .text, isRequired: true, maximumLength: Self.maximumSealedLength,
                                maximumBytes: Self.maximumSealedLength, allowsControlCharacters: true)
        return SyncTable(name: name, primaryKey: primaryKey, conflicts: conflicts, columns: clearColumns + [sealed], access: access,
                         isEndToEnd: true)
    }

    /// The table as a device reads the rows a server sends: for an
    /// end-to-end table, its clear columns, ``sealedColumn`` and its sealed
    /// columns, neither required, so that a row sent in the clear (a
    /// server that downgrades the table) is read, then refused by the
    /// device as that row alone (``SyncRowRefusal/notSealed(table:id:)``),
    /// not taken for a page that breaks the protocol; any other table as
    /// it is.
    public var receivedView: SyncTable {
        guard isEndToEnd else { return self }
        let optional = (sealedColumns + [serverView.columns.last!]).map { column in
            SyncColumn(name: column.name, type: column.type, isTrimmed: column.isTrimmed, maximumLength: column.maximumLength,
                       maximumBytes: column.maximumBytes, allowsControlCharacters: column.allowsControlCharacters, minimum: column.minimum,
                       maximum: column.maximum, references: column.references)
        }
        return SyncTable(name: name, primaryKey: primaryKey, conflicts: conflicts, columns: clearColumns + optional, access: access,
                         isEndToEnd: true)
    }

    /// Throws the first rule of an end-to-end table that this one breaks:
    /// its rows belong to a partition (an owner or group rule), the server
    /// cannot merge or cascade what it cannot read.
    func checkEndToEnd() throws(SyncSchemaError) {
        guard isEndToEnd else { return }
        switch access {
        case .owner, .group: break
        case .shared, .membership, nil:
            throw .invalidEndToEnd(table: name, "its rows are sealed under their partition's key, so its access rule must be owner or group")
        }
        guard conflicts == .serverWins else {
            throw .invalidEndToEnd(table: name, "the server cannot merge the columns it cannot read, so its conflicts must be server-wins")
        }
        if let column = sealedColumns.first(where: { $0.references != nil }) {
            throw .invalidEndToEnd(table: name, "column \(column.name) is a reference, which the server could not keep once sealed: "
                + "only the group column of an end-to-end table may reference another table")
        }
    }
}
