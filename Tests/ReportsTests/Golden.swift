import Foundation
import Testing

/// Compares rendered reports with the files in `Tests/ReportsTests/Golden/`.
///
/// Goldens are read from the test bundle (`Bundle.module`, the `.copy("Golden")` resource).
/// To re-record after an intended change of output:
///
///     AUDITOR_RECORD_GOLDEN=1 swift test --disable-xctest --filter ReportsTests
///
/// which writes into the source tree (found from `#filePath`) and passes with a warning per
/// file; review the diff with `git diff Tests/ReportsTests/Golden` before committing.
enum Golden {
    /// The environment variable that switches to recording.
    static let recordVariable = "AUDITOR_RECORD_GOLDEN"

    static var isRecording: Bool {
        ProcessInfo.processInfo.environment[recordVariable] == "1"
    }

    /// The golden folder in the source tree, for recording.
    static func sourceFolder(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    /// The golden file's contents from the test bundle, or `nil` if it is not there.
    static func load(_ name: String) -> String? {
        let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden")
            ?? Bundle.module.resourceURL?.appendingPathComponent("Golden").appendingPathComponent(name)
        guard let url, let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every golden file name in the bundle with the given suffix (`.json`), sorted.
    static func names(withSuffix suffix: String) -> [String] {
        guard let folder = Bundle.module.resourceURL?.appendingPathComponent("Golden"),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// Records an issue unless `actual` equals the golden file `name` byte for byte.
    ///
    /// On a mismatch, the first differing line is shown and the whole actual output is
    /// written next to a temporary copy so it can be diffed.
    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if isRecording {
            let url = sourceFolder().appendingPathComponent(name)
            do {
                try Data(actual.utf8).write(to: url)
                Issue.record("Recorded golden \(name) (\(recordVariable)=1); review it with git diff.",
                             severity: .warning, sourceLocation: sourceLocation)
            } catch {
                Issue.record("Cannot record golden \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = load(name) else {
            let hint = "record it with \(recordVariable)=1 swift test --disable-xctest --filter ReportsTests"
            Issue.record("Missing golden file Golden/\(name); \(hint)", sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        let actualURL = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-golden-\(name)")
        try? Data(actual.utf8).write(to: actualURL)
        Issue.record("""
            Output differs from golden \(name) \(firstDifference(expected, actual))
            Actual output: \(actualURL.path) (diff it with Tests/ReportsTests/Golden/\(name)).
            If the change is intended, re-record: \(recordVariable)=1 swift test --disable-xctest --filter ReportsTests
            """, sourceLocation: sourceLocation)
    }

    /// `at line 12:` with both versions of the line, escaped so control bytes are visible.
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let wanted = index < expectedLines.count ? String(reflecting: String(expectedLines[index])) : "(end of file)"
            let got = index < actualLines.count ? String(reflecting: String(actualLines[index])) : "(end of file)"
            if wanted != got { return "at line \(index + 1):\n  expected: \(wanted)\n  actual:   \(got)" }
        }
        return "(same lines, different bytes)"
    }
}
