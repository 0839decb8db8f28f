/// An association defined by a join condition instead of a foreign key:
/// see ``CommonTableExpression/association(to:on:)-(CommonTableExpression<Destination>,_)``.
public struct JoinAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _sqlAssociation: _SQLAssociation

    init(to destination: SQLQuery, condition: SQLAssociationCondition) {
        _sqlAssociation = _SQLAssociation(
            key: .inflected(destination.tableName), condition: condition, query: destination, isToMany: false)
    }
}
