/// Why ``AESGCM``, ``PBKDF2`` or ``HKDF`` failed.
package enum CryptographyError: Error, Equatable, CustomStringConvertible {
    /// The tag does not match: a wrong key, or modified bytes.
    case authenticationFailed
    /// An OpenSSL call failed (out of memory, or a parameter it refused).
    case openSSL(function: String)

    package var description: String {
        switch self {
        case .authenticationFailed: "the data does not authenticate with the key"
        case .openSSL(let function): "OpenSSL's \(function) failed"
        }
    }

    /// Throws `.openSSL(function)` unless `result` is 1, OpenSSL's success.
    static func check(_ result: Int32, _ function: String) throws {
        guard result == 1 else { throw CryptographyError.openSSL(function: function) }
    }
}
