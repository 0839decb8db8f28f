import Foundation

/// A new, empty folder in the temporary directory, removed with its
/// content when the value is released: hold it (in a local, or in the
/// object that uses the folder) for as long as the test needs the folder.
///
/// ```swift
/// let folder = try TemporaryFolder()
/// let queue = try DatabaseQueue(path: folder.path("db.sqlite"))
/// ```
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("CipherDBTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The folder's path.
    public var path: String { url.path }

    /// The path of `name` in the folder (`name` may hold subfolders).
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// The URL of `name` in the folder (`name` may hold subfolders).
    public func url(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }
}
