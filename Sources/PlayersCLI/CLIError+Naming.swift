import Foundation

extension CLIError {
    /// The same error, with a path that means nothing to the user (the
    /// temporary copy of standard input) replaced by what it stands for.
    func naming(_ path: String, as name: String) -> CLIError {
        guard description.contains(path) else { return self }
        return CLIError(description: description.replacingOccurrences(of: path, with: name), exitCode: exitCode)
    }
}
