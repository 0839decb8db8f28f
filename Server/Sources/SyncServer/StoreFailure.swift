/// A store's error that says whether the store's database cannot be
/// reached now (refused or dropped connections, no answer in time): a
/// request then gets `503 Service Unavailable` with `Retry-After`, which
/// clients retry, rather than `500`.
///
/// ```swift
/// catch let error as any StoreFailure where error.isUnavailable { … }
/// ```
public protocol StoreFailure: Error {
    /// Whether the database cannot be reached now, and a later call may
    /// succeed.
    var isUnavailable: Bool { get }
}
