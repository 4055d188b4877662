import ArgumentParser
import Auditor
import AuditorHistory
import Foundation
import Readers
import Reports

extension RunCommand {
    /// The session request these arguments describe.
    func request(catalog: MessageCatalog) -> AuditRequest {
        var r = AuditRequest(rules: .file(rules), registry: StandardReaders.registry)
        r.structuralRules = StandardReaders.structuralRules
        r.catalog = catalog
        r.sources = Self.namedPaths(sources)
        r.previous = Self.namedPaths(previous)
        r.changedOnly = changedOnly
        r.jobs = threads
        r.chunkSize = chunkSize
        r.maxSamples = maxSamples
        r.failOn = FailThreshold(rawValue: failOn) ?? .error
        r.failOnNew = failOnNew
        r.asOf = asOf.flatMap(CLI.instant)
        r.baseline = baseline.map { JSONReportBaseline(path: $0) }
        r.history = noHistory ? .none : history.map { .path($0) } ?? .fromRules
        r.historyFactory = SQLiteRunHistory.factory
        // A JSON report lists every fingerprint, so that it can be a later run's baseline.
        r.collectFingerprints = ([format] + reports.compactMap { ReportRequest.parse($0)?.format }).contains("json")
        r.outputs = outputPaths
        r.outputCheck = { try OutputFile.check($0.path, what: $0.what, option: $0.option, protecting: $1) }
        let (failuresOut, escape) = (failuresOut, csvFormulaEscape == "on")
        r.findingSink = { protected in try failuresOut.map { try FailuresFile(path: $0, formulaEscape: escape, protecting: protected) } }
        r.progress = quiet ? nil : ProgressDisplay.make()
        r.toolVersion = AuditorCommand.version
        r.onPlan = { traceSetup($0) }
        return r
    }

    /// `NAME=PATH` arguments (`--source`, `--previous`); ``validate()`` checked the `=`.
    static func namedPaths(_ list: [String]) -> [AuditRequest.SourcePath] {
        list.compactMap { s in
            s.firstIndex(of: "=").map { AuditRequest.SourcePath(name: String(s[..<$0]), path: String(s[s.index(after: $0)...])) }
        }
    }

    /// Every file output of the run, for the session's checks before the audit.
    var outputPaths: [AuditRequest.Output] {
        var list: [AuditRequest.Output] = []
        if let output { list.append(.init(option: "--output", path: output, what: "the report")) }
        for r in reports {
            if let parsed = ReportRequest.parse(r) { list.append(.init(option: "--report", path: parsed.path, what: "the report")) }
        }
        if let failuresOut { list.append(.init(option: "--failures-out", path: failuresOut, what: "the failures file")) }
        return list
    }

    /// Usage errors (exit 64): `--fail-on-new` without a baseline, an empty `--baseline`.
    func validateBaseline() throws {
        if let baseline, baseline.isEmpty {
            throw ValidationError("--baseline needs a file: a JSON report of an earlier run")
        }
        if failOnNew, baseline == nil, history == nil, noHistory {
            throw ValidationError("--fail-on-new needs a baseline to tell new findings from existing ones: add "
                                  + "--baseline FILE, a JSON report of an earlier run (--format json --output FILE)")
        }
    }

    /// Renders and writes the main report (stdout or `--output`), every `--report` and the
    /// GitHub job summary. One write that fails does not stop the others.
    /// - Returns: The errors of the writes that failed (73 cannot create, 74 write failed).
    func render(_ report: AuditReport, failures: FailuresFile?, protected: ProtectedFiles) -> [AuditError] {
        let environment = ProcessInfo.processInfo.environment
        let base = FileManager.default.currentDirectoryPath
        var writeErrors: [AuditError] = []
        let flag = ColorChoice.Flag(rawValue: color)
        let reportFile = output == "-" ? nil : output     // '-' is stdout
        let colorChoice = reportFile == nil
            ? ColorChoice.forStream(STDOUT_FILENO, flag: flag, environment: environment)
            : ColorChoice.resolve(flag: flag, environment: environment, isTTY: false)
        let useColor = format == "text" && colorChoice.enabled
        if format == "text" { trace(["colour \(useColor ? "on" : "off"): \(colorChoice.reason)"]) }
        let unicode = TextCharset.allowsUnicode(environment: environment)
        func link(page: String?) -> FailuresLink? {
            failures.map { FailuresLink(path: $0.path, pagePath: page, records: $0.records, findings: $0.findings,
                                        format: $0.format.rawValue) }
        }
        // validate() accepted the format, so there is a reporter for it.
        if let reporter = StandardReporters.reporter(format: format, color: useColor, verbose: verbose > 0,
                                                     baseDirectory: base, unicode: unicode, maxBytes: maxBytes,
                                                     failures: link(page: reportFile)) {
            let text = reporter.render(report)
            trace(["\(format) report, \(text.utf8.count) bytes, to \(reportFile ?? "stdout")"])
            if let reportFile {
                do { try OutputFile.write(text, to: reportFile, protecting: protected) } catch { writeErrors.append(error) }
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
        for request in reports {
            guard let (name, path) = ReportRequest.parse(request),
                  let extra = StandardReporters.reporter(format: name, color: false, verbose: verbose > 0,
                                                         baseDirectory: base, unicode: unicode, maxBytes: maxBytes,
                                                         failures: link(page: path)) else { continue }
            let rendered = extra.render(report)
            trace(["\(name) report, \(rendered.utf8.count) bytes, to \(path)"])
            do { try OutputFile.write(rendered, to: path, option: "--report", protecting: protected) } catch { writeErrors.append(error) }
        }
        // GitHub job summary: the reporter stays pure, the CLI appends.
        let formats = [format] + reports.compactMap { ReportRequest.parse($0)?.format }
        if formats.contains("github"), let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            do { try StepSummary.append(report, to: summary, baseDirectory: base, protecting: protected) } catch let e as AuditError {
                CLI.printWarning(e)
            } catch {
                CLI.printWarning(AuditError(.internal, "\(error)"))
            }
        }
        return writeErrors
    }
}
