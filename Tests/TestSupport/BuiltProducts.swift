import Foundation

/// The executables that `make build-tests` made: `players`, `cipherdb-bench`
/// and `cipherdb-demo` by this package, `players-server` by the server's
/// package in `Server/`, each in the folder that `swift build
/// --show-bin-path` names for its package, asked once per test process,
/// for the configuration the tests were built in.
public enum BuiltProducts {
    /// The built executable `name`. Throws when SwiftPM cannot name its
    /// package's products folder; the executable itself may not exist yet
    /// (run `make build-tests` first: the server's package is built apart).
    public static func url(_ name: String) throws -> URL {
        try (serverExecutables.contains(name) ? serverFolder : folder).get().appendingPathComponent(name)
    }

    /// The path of the built executable `name`.
    public static func path(_ name: String) throws -> String {
        try url(name).path
    }

    /// The folders of all built executables, for a `PATH`.
    public static func folders() throws -> [URL] {
        [try folder.get(), try serverFolder.get()]
    }

    /// The package's root: three levels above this file (where the tests
    /// read Docs/ from).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The server's package, which depends on this one by path.
    public static let serverPackageRoot = packageRoot.appendingPathComponent("Server")

    /// What the server's package builds; everything else is this package's.
    static let serverExecutables: Set<String> = ["players-server"]

    /// The configuration the tests were built in (`debug` or `release`).
    #if DEBUG
    public static let configuration = "debug"
    #else
    public static let configuration = "release"
    #endif

    private static let folder = binPath(of: packageRoot)
    private static let serverFolder = binPath(of: serverPackageRoot)

    private static func binPath(of package: URL) -> Result<URL, TestFailure> {
        let arguments = ["swift", "build", "--package-path", package.path, "-c", configuration, "--show-bin-path"]
        let command = arguments.joined(separator: " ")
        let result: (status: Int32, output: String, error: String)
        do {
            // SwiftPM leaves empty folders in TMPDIR: it gets one that goes.
            let temporary = try TemporaryFolder()
            let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
            // Once per package, when the first test asks: a short wait.
            result = try runBlocking("/usr/bin/env", arguments, environment: environment)
        } catch {
            return .failure(TestFailure("could not run \(command): \(error)"))
        }
        let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, path.hasPrefix("/") else {
            return .failure(TestFailure("\(command) failed (\(result.status)): \(result.error)"))
        }
        return .success(URL(fileURLWithPath: path, isDirectory: true))
    }
}
