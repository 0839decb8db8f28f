// Associations defined by record types, and requests that start with a
// join: `Book.including(required: Book.author)`.

extension TableRecord {
    /// An association to the record this one refers to with a foreign key:
    /// `static let author = belongsTo(Author.self)`.
    ///
    /// - parameters:
    ///   - key: The name of the association (default: the destination
    ///     table name, singularized).
    ///   - foreignKey: The columns of the foreign key (default: read from
    ///     the schema).
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(to: Destination.all().query, key: key, using: foreignKey)
    }

    /// An association to a row of a table this one refers to with a
    /// foreign key: `belongsTo(Table("author"))`.
    public static func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(to: destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the record that refers to this one, when there is
    /// at most one: `static let profile = hasOne(DemographicProfile.self)`.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(to: Destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the row of a table that refers to this one, when
    /// there is at most one.
    public static func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(to: destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the records that refer to this one:
    /// `static let books = hasMany(Book.self)`.
    ///
    /// - parameters:
    ///   - key: The name of the association (default: the destination
    ///     table name, pluralized).
    ///   - foreignKey: The columns of the foreign key (default: read from
    ///     the schema).
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(to: Destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the rows of a table that refer to this one.
    public static func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(to: destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the records reached through another association:
    /// `static let countries = hasMany(Country.self, through: books, using: Book.country)`.
    ///
    /// - parameter key: The name of the association (default: the key of
    ///   `target`, pluralized).
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target,
        key: String? = nil) -> HasManyThroughAssociation<Self, Target.RowDecoder>
        where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(through: pivot, using: target, key: key)
    }

    /// An association to the record reached through other to-one
    /// associations: `static let authorCountry = hasOne(Country.self, through: author, using: Author.country)`.
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target,
        key: String? = nil) -> HasOneThroughAssociation<Self, Target.RowDecoder>
        where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(through: pivot, using: target, key: key)
    }

    // MARK: - Joins

    /// `SELECT *, … FROM table LEFT JOIN …`: see ``JoinableRequest/including(optional:)``.
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
        where A.OriginRowDecoder == Self
    {
        all().including(optional: association)
    }

    /// `SELECT *, … FROM table JOIN …`: see ``JoinableRequest/including(required:)``.
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
        where A.OriginRowDecoder == Self
    {
        all().including(required: association)
    }

    /// `SELECT * FROM table`, then the rows of a to-many association: see
    /// ``JoinableRequest/including(all:)``.
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self>
        where A.OriginRowDecoder == Self
    {
        all().including(all: association)
    }

    /// `SELECT * FROM table LEFT JOIN …`: see ``JoinableRequest/joining(optional:)``.
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self>
        where A.OriginRowDecoder == Self
    {
        all().joining(optional: association)
    }

    /// `SELECT * FROM table JOIN …`: see ``JoinableRequest/joining(required:)``.
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self>
        where A.OriginRowDecoder == Self
    {
        all().joining(required: association)
    }

    /// Appends the columns of an association to the selection, with `LEFT JOIN`.
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self>
        where A.OriginRowDecoder == Self
    {
        all().annotated(withOptional: association)
    }

    /// Appends the columns of an association to the selection, with `JOIN`.
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self>
        where A.OriginRowDecoder == Self
    {
        all().annotated(withRequired: association)
    }

    /// Selects aggregates of associations: `Author.annotated(with: Author.books.count)`.
    public static func annotated(with aggregates: AssociationAggregate<Self>...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// Selects aggregates of associations.
    public static func annotated(with aggregates: [AssociationAggregate<Self>]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: aggregates)
    }

    /// Keeps the rows for which an aggregate of associations is true:
    /// `Author.having(Author.books.isEmpty)`.
    public static func having(_ predicate: AssociationAggregate<Self>) -> QueryInterfaceRequest<Self> {
        all().having(predicate)
    }

    /// `… FROM table alias`: see ``QueryInterfaceRequest/aliased(_:)-(TableAlias<Void>)``.
    public static func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    /// `… FROM table alias`.
    public static func aliased(_ alias: TableAlias<Self>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }
}

extension TableRecord where Self: EncodableRecord {
    /// The records associated with this one:
    /// `try author.request(for: Author.books).fetchAll(db)`.
    ///
    /// A key that holds NULL identifies no record. Through an association
    /// with pivots, the request joins them back to this record.
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder>
        where A.OriginRowDecoder == Self
    {
        var association = association._sqlAssociation
        let values = Result { try databaseDictionary }
        let originTable = Self.databaseTableName
        // The first step is filtered by the key of this record.
        let first = association.steps[0]
        association.steps[0].query.filters.append { db in
            let pairs = try first.condition.columnPairs(db, origin: originTable, destination: first.query.tableName)
            let dictionary = try values.get()
            var conditions: [SQLExpression] = []
            for pair in pairs {
                let value = dictionary.first { $0.key.lowercased() == pair.origin.lowercased() }?.value ?? .null
                if value.isNull { return false.sqlExpression }
                conditions.append(.compare(.equal, .column(pair.destination), value.sqlExpression))
            }
            return .and(conditions)
        }
        return QueryInterfaceRequest(query: association.destinationQuery())
    }
}
