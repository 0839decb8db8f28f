import Foundation
import PlayersProtocol

/// What a batch of `POST /v1/changes` does to a store, planned in memory
/// from the rows it can touch: its answers, and the net changes of rows
/// that a store writes in a few set-based statements, whatever the size
/// of the batch.
///
/// The changes are taken in order, by the rules of
/// ``PlayersStore/applyChanges(_:)``: a change whose mutation id is
/// recorded gets the recorded answer and changes nothing; any other is
/// decided by ``ChangeDecision`` on the state that the earlier changes of
/// the batch left, and each write it makes takes the next value of the
/// counter. The answers and the end state are those of applying the
/// changes one by one.
///
/// ```swift
/// // In the writing transaction, which holds the counter:
/// let plan = try ChangeBatchPlan(
///     batch, recorded: recordedResultsByMutationID, players: livePlayersOfTheBatch,
///     tombstones: tombstonesOfTheBatch, counter: counter, date: Date())
/// // Write plan.playersToSave … plan.tombstonesToDelete, record
/// // plan.resultsToRecord, store plan.counter.
/// return PlayersChangeResults(results: plan.results)
/// ```
public struct ChangeBatchPlan: Equatable, Sendable {
    /// One answer per change, in the order of the batch.
    public let results: [PlayersChangeResults.Result]
    /// The answers to the changes whose mutation ids were new, in the
    /// order of the batch: to record with their mutation ids.
    public let resultsToRecord: [RecordedAnswer]
    /// The counter after the batch: the last version it gave, or the
    /// counter it started from when it writes nothing.
    public let counter: Int64
    /// The live players to insert, or to update by uuid.
    public let playersToSave: [ServerPlayer]
    /// The uuids of the live players to delete.
    public let playersToDelete: [UUID]
    /// The tombstones to insert, or to update by uuid.
    public let tombstonesToSave: [ServerTombstone]
    /// The uuids of the tombstones to delete.
    public let tombstonesToDelete: [UUID]

    /// Plans a batch that `PlayersChangeBatch.validate()` accepts. A
    /// batch that names a uuid or a mutation id twice, which it refuses,
    /// would be planned as change-by-change application takes it.
    ///
    /// - Parameters:
    ///   - recorded: the recorded answers of the batch's mutation ids, by
    ///     mutation id.
    ///   - players: the live players of the batch's uuids.
    ///   - tombstones: the tombstones of the batch's uuids.
    ///   - counter: the counter before the batch.
    ///   - date: when deletions happen.
    public init(
        _ batch: PlayersChangeBatch,
        recorded: [UUID: RecordedAnswer],
        players: [ServerPlayer],
        tombstones: [ServerTombstone],
        counter: Int64,
        date: Date
    ) throws {
        let playersBefore = Dictionary(players.map { ($0.uuid, $0) }, uniquingKeysWith: { _, last in last })
        let tombstonesBefore = Dictionary(tombstones.map { ($0.uuid, $0) }, uniquingKeysWith: { _, last in last })
        var recorded = recorded
        var players = playersBefore
        var tombstones = tombstonesBefore
        var version = counter
        var results: [PlayersChangeResults.Result] = []
        var resultsToRecord: [RecordedAnswer] = []
        for change in batch.changes {
            if let answer = recorded[change.mutationID] {
                results.append(try answer.answer(toRetryOf: change))
                continue
            }
            let uuid = change.uuid
            let result: PlayersChangeResults.Result
            switch try ChangeDecision(change, player: players[uuid], tombstone: tombstones[uuid]) {
            case .answer(let answer):
                result = answer
            case .update(var player):
                version += 1
                player.version = version
                players[uuid] = player
                result = .applied(change, version: version)
            case .delete:
                version += 1
                players[uuid] = nil
                tombstones[uuid] = ServerTombstone(uuid: uuid, version: version, deletedAt: date)
                result = .applied(change, version: version)
            case .insert(let name, let score, let revivesTombstone):
                if revivesTombstone { tombstones[uuid] = nil }
                version += 1
                players[uuid] = ServerPlayer(uuid: uuid, name: name, score: score, version: version)
                result = .applied(change, version: version)
            }
            // As if recorded at once: a later change with this mutation
            // id gets this answer, as the store's table would give it.
            recorded[change.mutationID] = RecordedAnswer(result, for: change)
            results.append(result)
            resultsToRecord.append(RecordedAnswer(result, for: change))
        }
        self.results = results
        self.resultsToRecord = resultsToRecord
        self.counter = version

        // The net changes, in the order the batch first names the uuids:
        // every write takes a new version, so a row that differs from the
        // one found was written.
        var playersToSave: [ServerPlayer] = []
        var playersToDelete: [UUID] = []
        var tombstonesToSave: [ServerTombstone] = []
        var tombstonesToDelete: [UUID] = []
        var seen = Set<UUID>()
        for uuid in batch.changes.map(\.uuid) where seen.insert(uuid).inserted {
            if let player = players[uuid] {
                if player != playersBefore[uuid] { playersToSave.append(player) }
            } else if playersBefore[uuid] != nil {
                playersToDelete.append(uuid)
            }
            if let tombstone = tombstones[uuid] {
                if tombstone != tombstonesBefore[uuid] { tombstonesToSave.append(tombstone) }
            } else if tombstonesBefore[uuid] != nil {
                tombstonesToDelete.append(uuid)
            }
        }
        self.playersToSave = playersToSave
        self.playersToDelete = playersToDelete
        self.tombstonesToSave = tombstonesToSave
        self.tombstonesToDelete = tombstonesToDelete
    }
}
