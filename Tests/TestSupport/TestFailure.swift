/// Something a test or its helper needed did not happen (a server did not
/// start, a product is not built, a check found damage): the description
/// says what.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
