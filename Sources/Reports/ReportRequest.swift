import Foundation
import Auditor

/// `--report FORMAT:PATH`.
package enum ReportRequest {
    /// Splits at the first `:`; nil when either side is empty.
    public static func parse(_ text: String) -> (format: String, path: String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let format = String(text[..<colon]).lowercased()
        let path = String(text[text.index(after: colon)...])
        guard !format.isEmpty, !path.isEmpty else { return nil }
        return (format, path)
    }

    /// Every file a run writes (`--output`, `--report`, `--failures-out`), for the session's
    /// checks before the audit.
    public static func outputs(output: String?, reports: [String], failuresOut: String?) -> [AuditRequest.Output] {
        var list: [AuditRequest.Output] = []
        if let output { list.append(.init(option: "--output", path: output, what: "the report")) }
        for r in reports {
            if let parsed = parse(r) { list.append(.init(option: "--report", path: parsed.path, what: "the report")) }
        }
        if let failuresOut { list.append(.init(option: "--failures-out", path: failuresOut, what: "the failures file")) }
        return list
    }

    /// What is wrong with a run's report options, as a usage message, or nil.
    /// - Parameters:
    ///   - format: The main report's format (`--format`).
    ///   - output: The main report's file (`--output`).
    ///   - reports: The `--report FORMAT:PATH` values.
    /// - Returns: An unknown format, a malformed request, or a path named twice.
    public static func problem(format: String, output: String?, reports: [String]) -> String? {
        guard StandardReporters.formats.contains(format) else {
            return "unknown format '\(format)'; use one of: \(StandardReporters.formats.joined(separator: ", "))"
        }
        var seen = Set<String>()
        for r in reports {
            guard let (format, path) = parse(r) else {
                return "--report takes FORMAT:PATH, e.g. html:out/report.html; got '\(TerminalText.escaped(r))'"
            }
            guard StandardReporters.formats.contains(format) else {
                return "unknown format '\(TerminalText.escaped(format))' in --report; use one of: \(StandardReporters.formats.joined(separator: ", "))"
            }
            guard seen.insert(path).inserted, path != output else {
                return "--report names '\(TerminalText.escaped(path))' twice; give each report its own file"
            }
        }
        return nil
    }
}

/// Appends the GitHub job summary to `$GITHUB_STEP_SUMMARY`, within GitHub's 1 MiB per step
/// (less what earlier commands of the step already wrote).
///
/// Appending cannot be atomic, so the file is checked like every output first: never an audited
/// input, the rules file or their sidecars (however reached), and opened without blocking, so a
/// FIFO that no process reads is an error, not a hang.
package enum StepSummary {
    /// Appends the summary of `report` to the file at `path`.
    /// - Throws: ``AuditError``: `.usage` when `path` reaches a protected file,
    ///   `.cannotCreateOutput` when it cannot be opened or written, or is already full.
    public static func append(_ report: AuditReport, to path: String, baseDirectory: String,
                              protecting protected: ProtectedFiles, wording: ReportWording = .english) throws {
        try OutputFile.check(path, what: "the job summary", option: "GITHUB_STEP_SUMMARY", protecting: protected)
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw AuditError(.cannotCreateOutput, "cannot open the job summary file for appending", location: path,
                             cause: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        let existing = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        let budget = GitHubReporter.summaryLimit - existing
        guard budget > 0 else {
            throw AuditError(.cannotCreateOutput, "the job summary is already at GitHub's 1 MiB limit; not appending", location: path)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        let bytes = Array(GitHubReporter(baseDirectory: baseDirectory).summaryMarkdown(report, limit: budget, wording: wording).utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                throw AuditError(.cannotCreateOutput, "cannot append the job summary", location: path,
                                 cause: String(cString: strerror(errno)))
            }
            written += n
        }
    }
}
