// Associations from a table without a record type, and requests that start
// with a join: `Table("book").including(required: bookAuthor)`.

extension Table {
    /// An association to the row this table refers to with a foreign key.
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(to: Destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the row of a table this table refers to with a
    /// foreign key: `Table("book").belongsTo(Table("author"))`.
    public func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(to: destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the record that refers to this table, when there
    /// is at most one.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(to: Destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the row of a table that refers to this table,
    /// when there is at most one.
    public func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(to: destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the records that refer to this table.
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(to: Destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the rows of a table that refer to this table:
    /// `Table("author").hasMany(Table("book"))`.
    public func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil,
        using foreignKey: ForeignKey? = nil) -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(to: destination.all().query, key: key, using: foreignKey)
    }

    /// An association to the rows reached through another association:
    /// `Table("team").hasMany(Row.self, through: team.hasMany(player), using: player.hasMany(award))`.
    public func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target,
        key: String? = nil) -> HasManyThroughAssociation<RowDecoder, Target.RowDecoder>
        where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasManyThroughAssociation(through: pivot, using: target, key: key)
    }

    /// An association to the row reached through other to-one associations.
    public func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target,
        key: String? = nil) -> HasOneThroughAssociation<RowDecoder, Target.RowDecoder>
        where Pivot.OriginRowDecoder == RowDecoder, Pivot.RowDecoder == Target.OriginRowDecoder
    {
        HasOneThroughAssociation(through: pivot, using: target, key: key)
    }

    // MARK: - Joins

    /// `SELECT *, … FROM table LEFT JOIN …`.
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
        where A.OriginRowDecoder == RowDecoder
    {
        all().including(optional: association)
    }

    /// `SELECT *, … FROM table JOIN …`.
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
        where A.OriginRowDecoder == RowDecoder
    {
        all().including(required: association)
    }

    /// `SELECT * FROM table`, then the rows of a to-many association: see
    /// ``JoinableRequest/including(all:)``.
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder>
        where A.OriginRowDecoder == RowDecoder
    {
        all().including(all: association)
    }

    /// `SELECT * FROM table LEFT JOIN …`.
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder>
        where A.OriginRowDecoder == RowDecoder
    {
        all().joining(optional: association)
    }

    /// `SELECT * FROM table JOIN …`.
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder>
        where A.OriginRowDecoder == RowDecoder
    {
        all().joining(required: association)
    }

    /// Appends the columns of an association to the selection, with `LEFT JOIN`.
    public func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<RowDecoder>
        where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withOptional: association)
    }

    /// Appends the columns of an association to the selection, with `JOIN`.
    public func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<RowDecoder>
        where A.OriginRowDecoder == RowDecoder
    {
        all().annotated(withRequired: association)
    }

    /// Selects aggregates of associations: `Author.annotated(with: Author.books.count)`.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// Selects aggregates of associations.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// Keeps the rows for which an aggregate of associations is true:
    /// `Author.having(Author.books.isEmpty)`.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(predicate)
    }

    /// `… FROM table alias`.
    public func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }

    /// `… FROM table alias`.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }
}
