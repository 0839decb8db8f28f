import CipherSync
import SyncEngine
import SyncRowSealing
import SyncSchema
import SyncSealing

/// Opens the rows of end-to-end tables with the partition keys a device
/// held when ``SyncEndToEndSealer/opener(in:)`` read them. On one core: a
/// pull opens a page while the writer stages the previous one, on the
/// other (split between both cores as well, the pull took 5% longer).
///
/// ```swift
/// let opener = try sealer.opener(in: db)
/// let results = opener.open(page.rows)   // in order, one per row
/// ```
struct SyncEndToEndOpener: SyncRowOpener {
    let sealer: SyncRowSealer
    let keys: [SyncKeyEpoch: PartitionKey]

    func open(_ received: [SyncServerRow]) -> [Result<SyncOpenedRow, SyncRowRefusal>] {
        received.map(open)
    }

    private func open(_ server: SyncServerRow) -> Result<SyncOpenedRow, SyncRowRefusal> {
        let opened: (row: SyncRow, sealed: SealedValue?)
        do {
            opened = try sealer.open(server.row) { partition, epoch in keys[SyncKeyEpoch(partition: partition, epoch: epoch)] }
        } catch {
            return .failure(error)
        }
        guard let sealed = opened.sealed else { return .failure(.notSealed(table: server.row.table, id: server.row.id)) }
        return .success(SyncOpenedRow(server: SyncServerRow(row: opened.row, version: server.version),
                                      sealed: SyncSealedCounter(counter: sealed.sealedCounter, change: sealed.change)))
    }
}
