import Auditor
import Foundation

/// Renders one audit's reports and writes them: the main report (standard output or a file),
/// every extra `FORMAT:PATH` report, each atomically, and the GitHub job summary when a
/// `github` report is asked for and `$GITHUB_STEP_SUMMARY` is set. One write that fails does
/// not stop the others. What `auditor run` does after its session.
package struct ReportPublisher {
    /// The main report's format.
    public var format: String
    /// The main report's file; nil or `-` is standard output.
    public var output: String?
    /// The other reports, in order.
    public var extra: [(format: String, path: String)] = []
    /// `--color`; nil is `auto`.
    public var color: ColorChoice.Flag?
    /// `-v`: passing rules, per-input sources and times in the reports that show them.
    public var verbose = false
    /// The markdown report's size budget in UTF-8 bytes.
    public var maxBytes = MarkdownReporter.defaultMaxBytes
    /// The text and Markdown reports' own words (the `--locale` catalog's).
    public var wording = ReportWording.english
    public var environment = ProcessInfo.processInfo.environment
    /// Paths in reports are shown relative to this folder.
    public var baseDirectory = FileManager.default.currentDirectoryPath
    /// Receives `-vv` trace lines (where each report went, the colour decision).
    public var trace: ([String]) -> Void = { _ in }
    /// Receives problems that do not change the exit status (the job summary).
    public var warn: (AuditError) -> Void = { _ in }

    /// A publisher of `format` to `output`.
    public init(format: String, output: String?) {
        self.format = format
        self.output = output
    }

    /// Renders and writes every report of `report`.
    /// - Parameters:
    ///   - report: The session's report.
    ///   - failures: The failures file, which reports link to.
    ///   - protected: What no report may reach (``AuditOutcome/protected``).
    /// - Returns: The errors of the writes that failed (73 cannot create, 74 write failed), in order.
    public func publish(_ report: AuditReport, failures: FailuresFile?, protected: ProtectedFiles) -> [AuditError] {
        var writeErrors: [AuditError] = []
        let reportFile = output == "-" ? nil : output     // '-' is stdout
        let colorChoice = reportFile == nil
            ? ColorChoice.forStream(STDOUT_FILENO, flag: color, environment: environment)
            : ColorChoice.resolve(flag: color, environment: environment, isTTY: false)
        let useColor = format == "text" && colorChoice.enabled
        if format == "text" { trace(["colour \(useColor ? "on" : "off"): \(colorChoice.reason)"]) }
        let unicode = TextCharset.allowsUnicode(environment: environment)
        func link(page: String?) -> FailuresLink? {
            failures.map { FailuresLink(path: $0.path, pagePath: page, records: $0.records, findings: $0.findings,
                                        format: $0.format.rawValue) }
        }
        func reporter(_ format: String, color: Bool, page: String?) -> (any Reporter)? {
            StandardReporters.reporter(format: format, color: color, verbose: verbose, baseDirectory: baseDirectory,
                                       unicode: unicode, maxBytes: maxBytes, failures: link(page: page), wording: wording)
        }
        /// One report to `path` (nil: standard output); a JSON report is streamed as it is rendered.
        func write(_ reporter: any Reporter, _ name: String, to path: String?, option: String) {
            if let json = reporter as? JSONReporter {
                let written = Self.stream(json, report, to: path, option: option, protecting: protected)
                trace(["\(name) report, \(written.bytes) bytes, to \(path ?? "stdout")"])
                if let error = written.error { writeErrors.append(error) }
                return
            }
            let text = reporter.render(report)
            trace(["\(name) report, \(text.utf8.count) bytes, to \(path ?? "stdout")"])
            do throws(AuditError) {
                if let path {
                    try OutputFile.write(text, to: path, option: option, protecting: protected)
                } else {
                    try Self.writeStandardOutput(text)
                }
            } catch { writeErrors.append(error) }
        }
        if let main = reporter(format, color: useColor, page: reportFile) { write(main, format, to: reportFile, option: "--output") }
        for (name, path) in extra {
            if let other = reporter(name, color: false, page: path) { write(other, name, to: path, option: "--report") }
        }
        // GitHub job summary: the reporter stays pure, the publisher appends.
        if ([format] + extra.map(\.format)).contains("github"), let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            do {
                try StepSummary.append(report, to: summary, baseDirectory: baseDirectory, protecting: protected, wording: wording)
            } catch let e as AuditError {
                warn(e)
            } catch {
                warn(AuditError(.internal, "\(error)"))
            }
        }
        return writeErrors
    }

    /// Writes a JSON report as it is rendered, 64 KiB at a time, to `path` (atomically, as
    /// ``OutputFile`` does) or standard output (nil, `-`): the fingerprints of a large audit
    /// make megabytes that would otherwise be held twice, as bytes and as a `String`.
    /// - Returns: the bytes written, and the error that stopped the write.
    static func stream(_ json: JSONReporter, _ report: AuditReport, to path: String?, option: String,
                       protecting protected: ProtectedFiles) -> (bytes: Int, error: AuditError?) {
        var bytes = 0
        do throws(AuditError) {
            guard let path else {
                try json.write(report) { (chunk: UnsafeRawBufferPointer) throws(AuditError) in
                    try writeStandardOutput(chunk)
                    bytes += chunk.count
                }
                return (bytes, nil)
            }
            let file = try OutputFile(path: path, what: "the report", option: option, protecting: protected)
            try json.write(report) { (chunk: UnsafeRawBufferPointer) throws(AuditError) in
                try file.write(chunk)
                bytes += chunk.count
            }
            try file.commit()
            return (bytes, nil)
        } catch {
            return (bytes, error)
        }
    }

    /// Writes `text` to standard output (``StandardStream``): a report may be megabytes, and a
    /// copy of it would add as much to the peak memory.
    /// - Throws: `.io` when the write fails (a full disk behind a redirection).
    package static func writeStandardOutput(_ text: String) throws(AuditError) {
        var text = text
        try text.withUTF8 { bytes in Result { () throws(AuditError) in try writeStandardOutput(UnsafeRawBufferPointer(bytes)) } }.get()
    }

    private static func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) throws(AuditError) {
        if let failed = StandardStream.write(bytes, to: STDOUT_FILENO) {
            throw AuditError(.io, "cannot write the report to standard output", cause: String(cString: strerror(failed)))
        }
    }
}
