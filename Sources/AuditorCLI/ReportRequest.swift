import Foundation
import Auditor
import Reports

/// `--report FORMAT:PATH`.
enum ReportRequest {
    /// Splits at the first `:`; nil when either side is empty.
    static func parse(_ text: String) -> (format: String, path: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let format = String(text[..<colon]).lowercased()
        let path = String(text[text.index(after: colon)...])
        guard !format.isEmpty, !path.isEmpty else { return nil }
        return (format, path)
    }
}

/// Appends the GitHub job summary to `$GITHUB_STEP_SUMMARY`, within GitHub's 1 MiB per step
/// (less what earlier commands of the step already wrote).
enum StepSummary {
    static func append(_ report: AuditReport, to path: String, baseDirectory: String) throws {
        let existing = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        let budget = GitHubReporter.summaryLimit - existing
        guard budget > 0 else {
            throw AuditError(.cannotCreateOutput, "the job summary is already at GitHub's 1 MiB limit; not appending", location: path)
        }
        let text = GitHubReporter(baseDirectory: baseDirectory).summaryMarkdown(report, limit: budget)
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw AuditError(.cannotCreateOutput, "cannot open the job summary file for appending", location: path)
        }
        defer { try? handle.close() }
        do {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw AuditError(.cannotCreateOutput, "cannot append the job summary", location: path, cause: "\(error)")
        }
    }
}
