import Foundation
import TestSupport

/// Runs programs the tests check reports with (xmllint, chromium, python3).
enum ExternalTool {
    /// The first of `names` found on `PATH` (or given as an absolute path), or nil.
    static func find(_ names: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in names {
            if name.hasPrefix("/") {
                if FileManager.default.isExecutableFile(atPath: name) { return name }
                continue
            }
            for folder in path.split(separator: ":") {
                let candidate = "\(folder)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }

    /// Runs `executable` with `arguments`; returns its status, stdout and stderr. Status -1,
    /// with the reason and whatever it printed as stderr, when it cannot start or outlives
    /// `timeout` (it is killed then).
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 120)
        -> (status: Int32, stdout: String, stderr: String) {
        do {
            let result = try ChildProcess.run([executable] + arguments, timeout: timeout)
            return (result.status, result.stdoutText, result.stderrText)
        } catch {
            return (-1, "", "\(error)")
        }
    }

    /// A fresh temporary folder.
    static func temporaryFolder(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
