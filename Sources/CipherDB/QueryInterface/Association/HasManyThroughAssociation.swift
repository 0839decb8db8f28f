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

    init<Pivot: Association, Target: Association>(through pivot: Pivot, using target: Target)
        where Pivot.OriginRowDecoder == Origin, Pivot.RowDecoder == Target.OriginRowDecoder,
        Target.RowDecoder == Destination
    {
        _sqlAssociation = target._sqlAssociation.through(pivot._sqlAssociation)
    }
}

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

    init<Pivot: AssociationToOne, Target: AssociationToOne>(through pivot: Pivot, using target: Target)
        where Pivot.OriginRowDecoder == Origin, Pivot.RowDecoder == Target.OriginRowDecoder,
        Target.RowDecoder == Destination
    {
        _sqlAssociation = target._sqlAssociation.through(pivot._sqlAssociation)
    }
}
