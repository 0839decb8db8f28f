/// An association to the record that refers to the origin with a foreign
/// key, when there is at most one: a country has one demographic profile.
///
/// ```swift
/// struct Country: TableRecord {
///     static let profile = hasOne(DemographicProfile.self)
/// }
/// // SELECT country.*, demographicProfile.* FROM country
/// // LEFT JOIN demographicProfile ON demographicProfile.countryCode = country.code
/// let request = Country.including(optional: Country.profile)
/// ```
///
/// The destination table holds the foreign key.
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination

    public var _sqlAssociation: _SQLAssociation

    init(to destination: SQLQuery, key: String?, using foreignKey: ForeignKey?) {
        _sqlAssociation = _SQLAssociation(
            key: key.map { .fixedSingular($0) } ?? .inflected(destination.tableName),
            condition: .foreignKey(foreignKey, originHoldsForeignKey: false),
            query: destination,
            isToMany: false)
    }
}
