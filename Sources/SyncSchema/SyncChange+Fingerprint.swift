import Foundation

extension SyncChange {
    /// What the change is, whole, in 32 hexadecimal digits: the MD5
    /// (``SyncMD5``) of its operation, table, row id, base version and
    /// values (each column by name, with its type), each field written
    /// with its length so that no two changes write the same bytes. The
    /// server keeps it with the answer to the change's mutation id, which
    /// then answers a retry of this change and refuses any other (409):
    /// the same row with other values, or another base version, is another
    /// change, never one to answer `applied` and drop.
    ///
    /// ```swift
    /// change.fingerprint == retry.fingerprint   // the same change, sent again
    /// ```
    public var fingerprint: String {
        var bytes: [UInt8] = []
        func field(_ text: String) {
            bytes.append(contentsOf: "\(text.utf8.count):".utf8)
            bytes.append(contentsOf: text.utf8)
        }
        field(operation.rawValue)
        field(row.table)
        field(row.id.uuidString)
        field(baseVersion.map(String.init) ?? "")
        for (column, value) in row.values.sorted(by: { $0.key < $1.key }) {
            field(column)
            switch value {
            case .null: field("n")
            case .uuid(let uuid): field("u" + uuid.uuidString)
            case .integer(let integer): field("i" + String(integer))
            // The bits: a real is the same change only if it is the same number.
            case .real(let real): field("r" + String(real.bitPattern, radix: 16))
            case .boolean(let boolean): field(boolean ? "b1" : "b0")
            case .text(let text): field("t" + text)
            }
        }
        return SyncMD5.hexadecimal(&bytes)
    }
}
