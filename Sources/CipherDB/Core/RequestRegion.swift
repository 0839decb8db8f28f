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
struct RequestRegion: Sendable {
    /// The table of the request, and the rowids its filter allows.
    var rowIDs: (table: String, rowIDs: Set<Int64>)?
    /// The tables of the prefetched associations.
    var prefetchedRegion: DatabaseRegion?

    func apply(to selectedRegion: DatabaseRegion) -> DatabaseRegion {
        var region = selectedRegion
        if let rowIDs {
            region = region.tableIntersection(rowIDs.table, rowIDs: rowIDs.rowIDs)
        }
        // A request that selects no row prefetches nothing.
        if let prefetchedRegion, !region.isEmpty {
            region.formUnion(prefetchedRegion)
        }
        return region
    }
}
