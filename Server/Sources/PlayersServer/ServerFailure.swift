/// A failure of `players-server` (exit status 1), in one sentence that
/// says what failed and what to do, printed after `players-server: `.
struct ServerFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
