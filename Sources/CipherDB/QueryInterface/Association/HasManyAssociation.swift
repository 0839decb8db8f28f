/// An association to the records that refer to the origin with a foreign
/// key: an author has many books.
///
/// ```swift
/// struct Author: TableRecord {
///     static let books = hasMany(Book.self)
/// }
/// // SELECT DISTINCT author.* FROM author
/// // JOIN book ON book.authorId = author.id WHERE book.year > 2000
/// let request = Author
///     .joining(required: Author.books.filter(Column("year") > 2000))
///     .distinct()
/// ```
///
/// The destination table holds the foreign key.
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _sqlAssociation: _SQLAssociation

    init(to destination: SQLQuery, key: String?, using foreignKey: ForeignKey?) {
        _sqlAssociation = _SQLAssociation(
            key: key.map { .fixedPlural($0) } ?? .inflected(destination.tableName),
            condition: .foreignKey(foreignKey, originHoldsForeignKey: false),
            query: destination,
            isToMany: true)
    }
}
