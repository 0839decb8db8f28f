import Testing

/// The stores that the shared suites run on: every case of the server's
/// API and stores runs on both.
public enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded
    case postgres

    public var testDescription: String { rawValue }
}
