/// The join condition of an association: the foreign key between the two
/// tables, given or read from the schema when the request runs.
struct SQLAssociationCondition: Sendable {
    /// The foreign key given in the definition of the association, if any.
    var foreignKey: ForeignKey?
    /// Whether the origin of the association holds the foreign key
    /// (`belongsTo`), or the destination does (`hasOne`, `hasMany`).
    var originHoldsForeignKey: Bool

    /// The condition seen from the other table.
    var reversed: SQLAssociationCondition {
        SQLAssociationCondition(foreignKey: foreignKey, originHoldsForeignKey: !originHoldsForeignKey)
    }

    /// Pairs of (column of the table that holds the foreign key, column of
    /// the table it refers to).
    func mapping(_ db: Database, holder: String, referenced: String) throws -> [(holding: String, referenced: String)] {
        if let foreignKey, let destinationColumns = foreignKey.destinationColumns {
            guard foreignKey.originColumns.count == destinationColumns.count else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "the foreign key from \(holder) to \(referenced) has \(foreignKey.originColumns.count) columns on one side and \(destinationColumns.count) on the other")
            }
            return Array(zip(foreignKey.originColumns, destinationColumns))
        }
        let candidates = try db.foreignKeys(on: holder).filter { schemaKey in
            guard schemaKey.destinationTable.lowercased() == referenced.lowercased() else { return false }
            if let foreignKey {
                return Set(foreignKey.originColumns.map { $0.lowercased() })
                    == Set(schemaKey.originColumns.map { $0.lowercased() })
            }
            return true
        }
        if candidates.count == 1 {
            return candidates[0].mapping.map { ($0.origin, $0.destination) }
        }
        if candidates.count > 1 {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "ambiguous foreign key from \(holder) to \(referenced): give a ForeignKey in the definition of the association")
        }
        guard let foreignKey else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "could not infer a foreign key from \(holder) to \(referenced): give a ForeignKey in the definition of the association")
        }
        // No foreign key in the schema: the given columns refer to the
        // primary key (or the rowid).
        let primaryKey = try db.primaryKey(referenced).columns
        guard primaryKey.count == foreignKey.originColumns.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the foreign key from \(holder) to \(referenced) does not have as many columns as the primary key of \(referenced)")
        }
        return Array(zip(foreignKey.originColumns, primaryKey))
    }

    /// Pairs of (origin column, destination column).
    func columnPairs(_ db: Database, origin: String, destination: String) throws -> [(origin: String, destination: String)] {
        if originHoldsForeignKey {
            return try mapping(db, holder: origin, referenced: destination).map { ($0.holding, $0.referenced) }
        }
        return try mapping(db, holder: destination, referenced: origin).map { ($0.referenced, $0.holding) }
    }

    /// `destination.column = origin.column`, for each column of the key.
    func expressions(_ db: Database, origin: TableAliasBase, destination: TableAliasBase) throws -> [SQLExpression] {
        try columnPairs(db, origin: origin.tableName, destination: destination.tableName).map { pair in
            SQLExpression(.compare(.equal,
                                   SQLExpression(.qualifiedColumn(pair.destination, destination)),
                                   SQLExpression(.qualifiedColumn(pair.origin, origin))))
        }
    }
}
