import SyncSchema

/// Opens the rows of end-to-end tables that a server sent, with the keys a
/// device held when it was made (``SyncEndToEndCodec/opener(in:)``): pure
/// work, which runs outside any database access.
///
/// ```swift
/// let opener = try endToEnd.opener(in: db)
/// for result in opener.open(page.rows) {
///     switch result {
///     case .success(let opened): print(opened.server.row, opened.sealed.counter)
///     case .failure(let refusal): print(refusal)   // altered, moved, in the clear, no key…
///     }
/// }
/// ```
///
/// Whether a value is older than one the device took before is not its
/// concern: the engine checks the counters against its own
/// (``CipherDB/Database/syncSealedCounters(table:ids:includingStaged:)``).
public protocol SyncRowOpener: Sendable {
    /// `received`, each opened and checked against the declaration, with
    /// the counter of its sealed value, or why the device refuses it; in
    /// order.
    func open(_ received: [SyncServerRow]) -> [Result<SyncOpenedRow, SyncRowRefusal>]
}
