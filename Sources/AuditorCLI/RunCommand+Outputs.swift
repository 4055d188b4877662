import Auditor
import AuditorHistory
import Foundation
import AuditorReaders
import AuditorReports

extension RunCommand {
    /// The session request these arguments describe.
    func request() -> AuditRequest {
        var r = AuditRequest(rules: .file(rules), registry: StandardReaders.registry)
        r.structuralRules = StandardReaders.structuralRules
        r.locale = locale
        r.sources = sources.compactMap(AuditRequest.SourcePath.init(argument:))
        r.sourceFormats = sourceFormats.compactMap(AuditRequest.SourcePath.init(argument:))
        r.previous = previous.compactMap(AuditRequest.SourcePath.init(argument:))
        (r.changedOnly, r.pushdown, r.memoryLimit) = (changedOnly, pushdown, memoryLimit.flatMap(AuditRequest.byteSize))
        (r.jobs, r.chunkSize, r.maxSamples) = (threads, chunkSize, maxSamples)
        (r.failOn, r.failOnNew) = (FailThreshold(rawValue: failOn) ?? .error, failOnNew)
        r.asOf = asOf.flatMap(AuditRequest.instant)
        r.baseline = baseline.map { JSONReportBaseline(path: $0) }
        r.history = noHistory ? .none : history.map { .path($0) } ?? .fromRules
        r.historyFactory = SQLiteRunHistory.factory
        (r.hooks, r.runsOnlyNamedValidators) = (AuditorTool.validators, true)
        // A JSON report lists every fingerprint, so that it can be a later run's baseline.
        r.collectFingerprints = ([format] + reports.compactMap { ReportRequest.parse($0)?.format }).contains("json")
        r.outputs = ReportRequest.outputs(output: output, reports: reports, failuresOut: failuresOut)
        r.outputCheck = { try OutputFile.check($0.path, what: $0.what, option: $0.option, protecting: $1) }
        let (failuresOut, escape) = (failuresOut, csvFormulaEscape == "on")
        r.findingSink = { protected in try failuresOut.map { try FailuresFile(path: $0, formulaEscape: escape, protecting: protected) } }
        r.progress = quiet ? nil : ProgressDisplay.make()
        r.toolVersion = AuditorCommand.version
        r.onPlan = { plan in
            trace(RunTrace.setup(plan, rulesFile: rules, threads: threads, threadsGiven: jobs != nil, chunkSize: chunkSize,
                                 maxSamples: maxSamples, failOn: failOn))
        }
        return r
    }

    /// Writes `-vv` trace lines on stderr.
    func trace(_ lines: [String]) {
        if verbose >= 2, !lines.isEmpty { StandardStream.write(RunTrace.text(lines), to: STDERR_FILENO) }
    }

    /// The reports these arguments ask for.
    var publisher: ReportPublisher {
        var p = ReportPublisher(format: format, output: output)
        p.extra = reports.compactMap(ReportRequest.parse)
        p.color = ColorChoice.Flag(rawValue: color)
        p.verbose = verbose > 0
        p.maxBytes = maxBytes
        p.trace = trace
        p.warn = CLI.printWarning
        return p
    }
}
