/// A PostgreSQL type, by its object id (`pg_type.oid`): the types that the
/// store's statements bind and read.
package struct PostgresType: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt32

    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    static let bool = PostgresType(rawValue: 16)
    static let int8 = PostgresType(rawValue: 20)
    static let int2 = PostgresType(rawValue: 21)
    static let int4 = PostgresType(rawValue: 23)
    static let text = PostgresType(rawValue: 25)
    static let varchar = PostgresType(rawValue: 1043)
    static let name = PostgresType(rawValue: 19)
    static let timestamptz = PostgresType(rawValue: 1184)
    static let uuid = PostgresType(rawValue: 2950)
    static let boolArray = PostgresType(rawValue: 1000)
    static let int8Array = PostgresType(rawValue: 1016)
    static let textArray = PostgresType(rawValue: 1009)
    static let timestamptzArray = PostgresType(rawValue: 1185)
    static let uuidArray = PostgresType(rawValue: 2951)
}
