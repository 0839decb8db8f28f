import CipherDB
import SyncEngine
import SyncSchema

/// What seals and opens the rows of a declaration's end-to-end tables for
/// the engine's client (Docs/EndToEnd.md). `SyncEndToEndSealer`, in the
/// module SyncEndToEnd, is the one to use; CipherSync itself links no
/// cryptography, so that an app without such tables links none.
///
/// A ``SyncEngineStore`` of a declaration with end-to-end tables syncs
/// only with one (``SyncEngineStore/endToEnd``):
///
/// ```swift
/// var store = SyncEngineStore(dbQueue, schema: schema)
/// store.endToEnd = SyncEndToEndSealer(schema: schema)
/// ```
public protocol SyncEndToEndCodec: Sendable {
    /// Keys before rows: run by each sync before it pushes, once the
    /// device's identity is published. It takes the keys wrapped to the
    /// device's user, makes the keys of the partitions the device writes
    /// in and owns, and wraps them to whoever reads those partitions.
    func exchangeKeys(with directory: SyncKeyDirectoryClient, in writer: any DatabaseWriter) async throws -> SyncKeyExchangeReport

    /// `change` as the server stores it, its row sealed; nil when the
    /// device holds no key to seal it under yet: it then waits in the
    /// outbox.
    func seal(_ change: SyncChange, in db: Database) throws -> SyncChange?

    /// Records that the server applied a change that ``seal(_:in:)``
    /// sealed, so that the device refuses an older value of its row.
    func applied(_ sealed: SyncChange, in db: Database) throws

    /// What opens the rows of end-to-end tables with the keys the device
    /// holds now, with no database: made once for a pull, before its first
    /// page, so that each page is opened while the previous one is staged.
    func opener(in db: Database) throws -> any SyncRowOpener
}

/// A row of an end-to-end table opened (``SyncRowOpener/open(_:)``):
/// the declared row, and the counter of the sealed value it came in, which
/// the device keeps once it takes the row.
public struct SyncOpenedRow: Sendable, Equatable {
    public var server: SyncServerRow
    public var sealed: SyncSealedCounter

    public init(server: SyncServerRow, sealed: SyncSealedCounter) {
        self.server = server
        self.sealed = sealed
    }
}
