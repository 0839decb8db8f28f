/// An association to the records reached through another association: the
/// countries of an author's books.
///
/// ```swift
/// struct Author: TableRecord {
///     static let books = hasMany(Book.self)
///     static let countries = hasMany(Country.self, through: books, using: Book.country)
/// }
/// // SELECT DISTINCT country.* FROM country
/// // JOIN book ON book.countryCode = country.code AND book.authorId = 1
/// let countries = try author.request(for: Author.countries).distinct().fetchAll(db)
/// ```
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _sqlAssociation: _SQLAssociation

    /// `key`: the name of the association (default: the key of `target`,
    /// pluralized).
    init<Pivot: Association, Target: Association>(through pivot: Pivot, using target: Target, key: String?)
        where Pivot.OriginRowDecoder == Origin, Pivot.RowDecoder == Target.OriginRowDecoder,
        Target.RowDecoder == Destination
    {
        _sqlAssociation = target._sqlAssociation.through(pivot._sqlAssociation)
        if let key {
            _sqlAssociation.destination.key = .fixedPlural(key)
        }
        _sqlAssociation.destination.isToMany = true
    }
}
