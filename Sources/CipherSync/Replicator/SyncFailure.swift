import SyncEngine

/// Why a replicator's sync failed (``SyncActivity/failed(_:)``), by kind;
/// an unreachable server is ``SyncActivity/offline(_:)`` instead.
///
/// ```swift
/// if case .failed(.server(let error)) = replicator.status.activity, error == .unauthorized {
///     askForANewToken()
/// }
/// ```
public enum SyncFailure: Error, Sendable, CustomStringConvertible {
    /// The transfer failed, the server reached: TLS, a redirect, a body
    /// too large, a URL.
    case transport(TransportError)
    /// The server answered with an error (``SyncError``: unauthorized,
    /// busy, another server's database…).
    case server(SyncError)
    /// The server's answer broke the protocol.
    case payload(SyncPayloadError)
    /// A local change refused before anything was sent
    /// (``SyncEngine/SyncChangeRefusal``): its row, and why.
    case changeRefused(SyncRowReference, any Error)
    /// The local database, or an app's check, failed.
    case local(any Error)

    /// The failure an error thrown by a sync is.
    public init(_ error: any Error) {
        switch error {
        case let error as SyncFailure: self = error
        case let error as TransportError: self = .transport(error)
        case let error as SyncError: self = .server(error)
        case let error as SyncPayloadError: self = .payload(error)
        case let error as any SyncChangeRefusal:
            if let row = error.refusedRow { self = .changeRefused(row, error) } else { self = .local(error) }
        default: self = .local(error)
        }
    }

    /// The error as the sync threw it.
    public var error: any Error {
        switch self {
        case .transport(let error): error
        case .server(let error): error
        case .payload(let error): error
        case .changeRefused(_, let error), .local(let error): error
        }
    }

    /// Whether no retry can mend it: the server holds another database
    /// than the one this device synced with (``SyncError/otherServer``),
    /// which a person must confirm, or another identity key for the user
    /// (``SyncError/identityRefused``).
    public var endsReplication: Bool {
        if case .server(let error) = self { return error == .otherServer || error == .identityRefused }
        return false
    }

    public var description: String { "\(error)" }
}
