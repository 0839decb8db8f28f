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
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    return try runBlocking(process, input: input)
}

/// Runs a configured process the same way, on a thread of its own;
/// `onOutput`, if given, gets the standard output received so far each
/// time more arrives.
public func run(_ process: sending Process, input: String? = nil,
                onOutput: (@Sendable (String) -> Void)? = nil) async throws -> ProcessResult {
    let box = ProcessBox(process)
    return try await onThread { try runBlocking(box.process, input: input, onOutput: onOutput) }
}

/// ``run(_:input:onOutput:)``, waiting on the calling thread.
public func runBlocking(_ process: Process, input: String? = nil,
                        onOutput: (@Sendable (String) -> Void)? = nil) throws -> ProcessResult {
    let outputPipe = Pipe(), errorPipe = Pipe(), inputPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inputPipe.fileHandleForWriting.close()
    let errorData = ErrorCollector()
    let errorReader = Thread { errorData.set(errorPipe.fileHandleForReading.readDataToEndOfFile()) }
    errorReader.start()
    var output = Data()
    if let onOutput {
        var chunk = outputPipe.fileHandleForReading.availableData
        while !chunk.isEmpty {
            output.append(chunk)
            onOutput(String(decoding: output, as: UTF8.self))
            chunk = outputPipe.fileHandleForReading.availableData
        }
    } else {
        output = outputPipe.fileHandleForReading.readDataToEndOfFile()
    }
    process.waitUntilExit()
    let error = errorData.wait()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}

/// A process handed to the thread that runs it. `Sendable` because the
/// caller gives it up (`sending`): only that thread touches it afterwards.
final class ProcessBox: @unchecked Sendable {
    let process: Process
    init(_ process: sending Process) { self.process = process }
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
