import Foundation

/// One folder per test process under the temporary directory, removed when the process exits:
/// the reader tests write thousands of small files, and nothing cleans `/tmp` on Linux.
enum ScratchRoot {
    static let url: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-readers-tests-\(getpid())", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchRoot.url) }
        return url
    }()

    /// A fresh folder for one test's files.
    static func folder(_ label: String) throws -> URL {
        let url = Self.url.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
