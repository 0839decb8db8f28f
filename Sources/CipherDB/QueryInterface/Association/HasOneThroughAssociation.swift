/// An association to the record reached through other to-one associations:
/// the country of a book's author.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self)
///     static let authorCountry = hasOne(Country.self, through: author, using: Author.country)
/// }
/// ```
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _sqlAssociation: _SQLAssociation

    /// `key`: the name of the association (default: the key of `target`).
    init<Pivot: AssociationToOne, Target: AssociationToOne>(through pivot: Pivot, using target: Target, key: String?)
        where Pivot.OriginRowDecoder == Origin, Pivot.RowDecoder == Target.OriginRowDecoder,
        Target.RowDecoder == Destination
    {
        _sqlAssociation = target._sqlAssociation.through(pivot._sqlAssociation)
        if let key {
            _sqlAssociation.destination.key = .fixedSingular(key)
        }
    }
}
