/// An error that refuses the local change of one row before anything is
/// sent, naming the row: the replicator reports it as a refused change
/// (``CipherSync/SyncEvent/changeRefused(_:_:)``) besides its failure.
/// The engine's ``SyncEngineError/rowBreaksDeclaration(table:id:_:)``
/// is one; an app's own rules checked before each push
/// (``CipherSync/SyncReplicator/Configuration/checkBeforePush``) throw
/// theirs.
///
/// ```swift
/// extension MyRuleError: SyncChangeRefusal {
///     var refusedRow: SyncRowReference? { SyncRowReference(table: "task", id: taskID) }
/// }
/// ```
public protocol SyncChangeRefusal: Error {
    /// The row whose change is refused, if the error names one.
    var refusedRow: SyncRowReference? { get }
}

extension SyncEngineError: SyncChangeRefusal {
    public var refusedRow: SyncRowReference? {
        guard case .rowBreaksDeclaration(let table, let id, _) = self else { return nil }
        return SyncRowReference(table: table, id: id)
    }
}
