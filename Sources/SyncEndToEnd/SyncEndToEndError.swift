import Foundation

/// Why a device cannot sync its end-to-end tables: by case, with one
/// sentence that says what to do. Nothing is sent or merged then.
public enum SyncEndToEndError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The device keeps no identity: it has no key pair to take or wrap
    /// keys with.
    case noIdentity
    /// No server has taken the device's identity key yet, so the device
    /// does not know its user: a server without users (`404`), which
    /// serves no end-to-end table.
    case identityNotPublished

    public var description: String {
        switch self {
        case .noIdentity:
            "this device keeps no identity key, which end-to-end tables need: make it from the user's recovery key "
                + "(notes init --recovery-key-file FILE) before it syncs"
        case .identityNotPublished:
            "the server took no identity key from this device, so it cannot seal rows for its user: "
                + "end-to-end tables are served under signed identities alone (players-server --auth jwt)"
        }
    }
}
