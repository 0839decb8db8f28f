import Foundation

/// gzip, with Debian's gzip.
public func gzip(_ data: Data) throws -> Data {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", "-n"]
    let result = try runBlocking(process, input: data)
    guard result.status == 0 else { throw TestFailure("gzip exited with \(result.status): \(String(decoding: result.error, as: UTF8.self))") }
    return result.output
}
