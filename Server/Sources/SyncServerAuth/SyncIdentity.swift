import Foundation

/// Who a request is from: the subject and roles of the token it carries,
/// verified (``TokenVerifier``).
///
/// ```swift
/// let identity = try await verifier.identity(bearing: token)
/// identity.user     // "alice"
/// identity.roles    // ["editor"]
/// ```
public struct SyncIdentity: Sendable, Hashable {
    /// The token's `sub`.
    public let user: String
    /// The token's `roles`, empty when it has none.
    public let roles: Set<String>
    /// The token's `exp`: a request held past it (a long-poll) ends with 401.
    public let expiresAt: Date

    public init(user: String, roles: Set<String>, expiresAt: Date) {
        self.user = user
        self.roles = roles
        self.expiresAt = expiresAt
    }
}
