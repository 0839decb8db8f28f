/// How a query interface request changes the region of its statement,
/// which the SQL alone does not tell:
///
/// - A filter on rowids restricts the region of the table to those rows,
///   so that an observation of `Player.filter(id: 1)` ignores changes to
///   other players: `player(id,name,score)[1]`. A filter that no row
///   passes (`Player.none()`) gives the empty region.
/// - A request that prefetches associations (`including(all:)`) also
///   reads their tables, even when no row leads to them: an observation
///   of `Parent.including(all: Parent.children)` that starts on an empty
///   `parent` table must notice the children inserted with the parents.
///
/// Computed from the query when the region is needed (observations), so
/// that fetches that nothing observes pay nothing for it.
struct RequestRegion: Sendable {
    let query: SQLQuery

    func apply(to selectedRegion: DatabaseRegion, _ db: Database) -> DatabaseRegion {
        var region = selectedRegion
        // Where the rows cannot be known, all of them are tracked.
        if let rowIDs = try? query.identifyingRowIDs(db) {
            region = region.tableIntersection(query.tableName, rowIDs: rowIDs)
        }
        // A request that selects no row prefetches nothing.
        guard !region.isEmpty else { return region }
        for association in query.prefetchedAssociations {
            guard let prefetchedRegion = try? query.prefetchedRegion(db, of: association) else {
                // Unknown tables: any change may matter.
                return .fullDatabase
            }
            region.formUnion(prefetchedRegion)
        }
        return region
    }
}
