import SyncSchema

/// A cursor of the players protocol: the sync protocol's
/// (`COUNTER.EPOCH.SERVER`).
public typealias PlayersCursor = SyncCursor

/// One epoch of a server database's history, as a players snapshot lists
/// them: the sync protocol's.
public typealias PlayersEpoch = SyncEpoch
