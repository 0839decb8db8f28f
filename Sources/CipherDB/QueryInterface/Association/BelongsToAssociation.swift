/// An association to the record that the origin refers to with a foreign
/// key: a book belongs to its author.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// // SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId
/// let request = Book.including(required: Book.author)
/// ```
///
/// The origin table holds the foreign key: it is read from the schema when
/// the request runs, unless a ``ForeignKey`` is given.
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _sqlAssociation: _SQLAssociation

    init(to destination: SQLQuery, key: String?, using foreignKey: ForeignKey?) {
        _sqlAssociation = _SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.tableName),
            condition: .foreignKey(foreignKey, originHoldsForeignKey: true),
            query: destination,
            isToMany: false)
    }
}
