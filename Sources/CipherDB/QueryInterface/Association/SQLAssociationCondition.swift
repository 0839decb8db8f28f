/// The join condition of an association: the foreign key between the two
/// tables, given or read from the schema when the request runs, or an
/// expression of the two tables (`CommonTableExpression.association(to:on:)`),
/// or none.
enum SQLAssociationCondition: Sendable {
    /// `originHoldsForeignKey`: whether the origin of the association holds
    /// the foreign key (`belongsTo`), or the destination does (`hasOne`,
    /// `hasMany`). `foreignKey`: given in the definition, or nil.
    case foreignKey(ForeignKey?, originHoldsForeignKey: Bool)
    /// An expression of the origin and destination tables.
    case expression(@Sendable (_ origin: TableAliasBase, _ destination: TableAliasBase) -> SQLExpression)
    /// No condition: every row of the destination joins.
    case none

    /// The condition of two joins of one association key, or nil when
    /// they differ. Foreign keys must be the same; of two expressions,
    /// which cannot be compared, the last one wins, as in GRDB.
    func merged(with other: SQLAssociationCondition) -> SQLAssociationCondition? {
        switch (self, other) {
        case let (.foreignKey(lhs, lhsOriginHolds), .foreignKey(rhs, rhsOriginHolds)):
            return lhs == rhs && lhsOriginHolds == rhsOriginHolds ? self : nil
        case (.expression, .expression):
            return other
        case (.none, .none):
            return self
        default:
            return nil
        }
    }

    /// The condition seen from the other table.
    var reversed: SQLAssociationCondition {
        switch self {
        case let .foreignKey(foreignKey, originHoldsForeignKey):
            return .foreignKey(foreignKey, originHoldsForeignKey: !originHoldsForeignKey)
        case let .expression(condition):
            return .expression { origin, destination in condition(destination, origin) }
        case .none:
            return .none
        }
    }

    /// Pairs of (column of the table that holds the foreign key, column of
    /// the table it refers to).
    private static func mapping(
        _ db: Database, foreignKey: ForeignKey?, holder: String, referenced: String) throws
        -> [(holding: String, referenced: String)]
    {
        if let foreignKey, let destinationColumns = foreignKey.destinationColumns {
            guard foreignKey.originColumns.count == destinationColumns.count else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "the foreign key from \(holder) to \(referenced) has \(foreignKey.originColumns.count) columns on one side and \(destinationColumns.count) on the other")
            }
            return Array(zip(foreignKey.originColumns, destinationColumns))
        }
        // Views have no foreign key in the schema.
        let schemaKeys = try db.tableExists(holder) ? db.foreignKeys(on: holder) : []
        let candidates = schemaKeys.filter { schemaKey in
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

    /// Pairs of (origin column, destination column) of a foreign key.
    func columnPairs(_ db: Database, origin: String, destination: String) throws -> [(origin: String, destination: String)] {
        switch self {
        case let .foreignKey(foreignKey, originHoldsForeignKey: true):
            return try Self.mapping(db, foreignKey: foreignKey, holder: origin, referenced: destination)
                .map { ($0.holding, $0.referenced) }
        case let .foreignKey(foreignKey, originHoldsForeignKey: false):
            return try Self.mapping(db, foreignKey: foreignKey, holder: destination, referenced: origin)
                .map { ($0.referenced, $0.holding) }
        case .expression, .none:
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "the association from \(origin) to \(destination) has no foreign key: it can only be joined")
        }
    }

    /// The join condition: `destination.column = origin.column` for each
    /// column of a foreign key, or the expression.
    func expressions(_ db: Database, origin: TableAliasBase, destination: TableAliasBase) throws -> [SQLExpression] {
        switch self {
        case .foreignKey:
            return try columnPairs(db, origin: origin.tableName, destination: destination.tableName).map { pair in
                SQLExpression(.compare(.equal,
                                       SQLExpression(.qualifiedColumn(pair.destination, destination)),
                                       SQLExpression(.qualifiedColumn(pair.origin, origin))))
            }
        case .expression(let condition):
            return [condition(origin, destination)]
        case .none:
            return []
        }
    }
}
