import Foundation

/// What a program that ran to its end left: its exit status, standard
/// output and standard error.
public typealias ProcessResult = (status: Int32, output: String, error: String)

/// Runs a program to its end and returns its exit status, standard output
/// and standard error. Standard input gets `input` (then end of file).
/// Both outputs are read at once, so that a program that fills one pipe
/// while the other is read cannot block.
///
/// The wait happens on a thread of its own (``onThread(_:)``): a test that
/// waits for a program must never hold one of Swift's cooperative threads,
/// which are as many as the cores and run the servers that tests start in
/// their own process.
public func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                input: String? = nil) async throws -> ProcessResult {
    try await onThread { try runBlocking(executable, arguments, environment: environment, input: input) }
}

/// ``run(_:_:environment:input:)``, waiting on the calling thread: only for
/// a thread of the test's own, never on a cooperative one.
public func runBlocking(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                        input: String? = nil) throws -> ProcessResult {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    return try runBlocking(process, input: input)
}

/// Runs a configured process the same way, on a thread of its own;
/// `onOutput`, if given, gets the standard output received so far each
/// time more arrives.
public func run(_ process: ChildProcess, input: String? = nil,
                onOutput: (@Sendable (String) -> Void)? = nil) async throws -> ProcessResult {
    try await onThread { try runBlocking(process, input: input, onOutput: onOutput) }
}

/// ``run(_:input:onOutput:)``, waiting on the calling thread.
public func runBlocking(_ process: ChildProcess, input: String? = nil,
                        onOutput: (@Sendable (String) -> Void)? = nil) throws -> ProcessResult {
    let result = try runBlocking(process, input: Data((input ?? "").utf8)) { output in
        onOutput?(String(decoding: output, as: UTF8.self))
    }
    return (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.error, as: UTF8.self))
}

/// Runs a configured process to its end with `input` on its standard
/// input, and returns its exit status and both outputs as bytes;
/// `onOutput` gets the standard output received so far each time more
/// arrives. Input is written, and standard error read, on threads of
/// their own, so that no pipe can fill while another is waited on.
public func runBlocking(_ process: ChildProcess, input: Data,
                        onOutput: (Data) -> Void = { _ in }) throws -> (status: Int32, output: Data, error: Data) {
    try runBlocking(process, writeInput: { writeAll($0, input) }, onOutput: onOutput)
}

/// ``runBlocking(_:input:onOutput:)`` with the input written by
/// `writeInput` (on a thread of its own, given the pipe's end, closed
/// after it returns): for input that waits on the output.
func runBlocking(_ process: ChildProcess, writeInput: @escaping @Sendable (Int32) -> Void,
                 onOutput: (Data) -> Void) throws -> (status: Int32, output: Data, error: Data) {
    let inputPipe = try PipeEnds(), outputPipe = try PipeEnds(), errorPipe = try PipeEnds()
    process.standardInput = FileHandle(fileDescriptor: inputPipe.reading)
    process.standardOutput = FileHandle(fileDescriptor: outputPipe.writing)
    process.standardError = FileHandle(fileDescriptor: errorPipe.writing)
    do {
        try process.run()
    } catch {
        [inputPipe, outputPipe, errorPipe].forEach { $0.closeBoth() }
        throw error
    }
    // The child holds its own copies now: only its ends stay open, so
    // that each pipe ends when the child is done with it.
    close(inputPipe.reading)
    close(outputPipe.writing)
    close(errorPipe.writing)
    let writer = Thread {
        _ = ignoreBrokenPipes
        writeInput(inputPipe.writing)
        close(inputPipe.writing)
    }
    writer.start()
    let errorData = ErrorCollector()
    let errorReader = Thread {
        errorData.set(readAll(errorPipe.reading) { _ in })
        close(errorPipe.reading)
    }
    errorReader.start()
    let output = readAll(outputPipe.reading, onOutput)
    close(outputPipe.reading)
    process.waitUntilExit()
    let error = errorData.wait()
    return (process.terminationStatus, output, error)
}

/// The two ends of a pipe. A child gets only those it is given: every
/// ``ChildProcess`` closes the rest.
private struct PipeEnds {
    let reading: Int32
    let writing: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        (reading, writing) = (fds[0], fds[1])
    }

    func closeBoth() {
        close(reading)
        close(writing)
    }
}

/// A child that exits before reading all of its input makes the write
/// fail with EPIPE instead of killing the test process.
private let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Reads to the end of file, retrying reads that a signal interrupts;
/// `onRead` gets everything read so far after each read.
private func readAll(_ fd: Int32, _ onRead: (Data) -> Void) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            data.append(contentsOf: buffer[..<count])
            onRead(data)
        } else if count == 0 || errno != EINTR {
            return data
        }
    }
}

/// Writes everything, retrying writes that a signal interrupts; stops
/// when the reader has gone.
func writeAll(_ fd: Int32, _ data: Data) {
    data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if count > 0 {
                offset += count
            } else if count < 0 && errno != EINTR {
                return
            }
        }
    }
}

/// The standard error read on another thread. `Sendable` through its
/// semaphore: `set` happens once, before `wait` returns.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    func set(_ data: Data) {
        self.data = data
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
