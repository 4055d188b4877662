import Foundation

/// One audit, as `auditor run` does it and a library user gets it: compiles the rules, resolves
/// the source overrides, loads the baseline, refuses outputs and a history that reach what the
/// run reads, runs the engine, and enriches the report through the plug-ins (the baseline, the
/// history's trends, last run and record).
///
/// ```swift
/// var request = AuditRequest(rules: .file("rules.yml"), registry: StandardReaders.registry)
/// request.historyFactory = SQLiteRunHistory.factory
/// let outcome = try AuditSession(request).run()
/// print(JSONReporter().render(outcome.report)); exit(outcome.exitStatus.rawValue)
/// ```
public struct AuditSession {
    public var request: AuditRequest

    public init(_ request: AuditRequest) {
        self.request = request
    }

    /// Runs the audit.
    /// - Returns: The enriched report, the input and history errors, the exit status and notes.
    /// - Throws: ``AuditError`` for what stops the run before or while it reads data: an
    ///   invalid rules file (78), a usage error (64: an unknown source name, `--fail-on-new`
    ///   without a baseline, an output or history that is an input), an unusable baseline
    ///   (65, 66, 74), an error of the finding sink. Input and history problems found after
    ///   reading began are in the outcome instead, with the report.
    public func run() throws -> AuditOutcome {
        let now = request.asOf ?? Int64(Date().timeIntervalSince1970)
        var plan: AuditPlan
        var catalog = request.catalog
        switch request.rules {
        case .file(let path):
            catalog = try request.locale.map {
                try MessageLocale.catalog(for: $0, rulesPath: path, structuralRules: request.structuralRules)
            } ?? request.catalog
            plan = try Self.loadPlan(path, registry: request.registry, structuralRules: request.structuralRules,
                                     catalog: catalog, now: now, sources: request.sources, sourceFormats: request.sourceFormats)
        case .plan(let compiled):
            plan = compiled
        }
        request.onPlan?(plan)
        let files = try Self.sourceFiles(request.sources, plan: plan)
        try Self.applyFormats(request.sourceFormats, to: &plan, registry: request.registry)
        let previousPaths = try Self.namedPaths(request.previous, flag: "--previous", plan: plan)
        // Before the audit writes anything: the baseline may be the report this run replaces.
        let baseline = try request.baseline.map { (fingerprints: try $0.fingerprints(), name: $0.name) }
        let inputs = protectedFiles(plan: plan, sourceFiles: files, previousPaths: previousPaths)
        var protected = inputs
        let historyPath = self.historyPath(for: plan)
        if let historyPath { protected.add(historyPath, role: "the history database") }
        if request.failOnNew, request.baseline == nil, historyPath == nil {
            throw AuditError(.usage, "--fail-on-new needs a baseline to tell new findings from existing ones: add "
                                 + "--baseline FILE (a JSON report of an earlier run) or --history PATH (the last run recorded there)")
        }
        let history = try historyPath.map {
            try HistoryStep.start(path: $0, factory: request.historyFactory, plan: plan, sourceFiles: files,
                                  registry: request.registry, protected: inputs, outputs: request.outputs.map(\.path))
        }
        try checkOutputs(protected)        // after the history's own checks (their messages are more precise)
        let sink = try request.findingSink?(protected)
        var options = AuditOptions(jobs: request.jobs, chunkSize: request.chunkSize, maxSamples: request.maxSamples,
                                   failOn: request.failOn, progress: request.progress,
                                   findingSink: sink, asOf: now)
        options.hooks = try request.hooks.selected(for: plan, onlyNamed: request.runsOnlyNamedValidators)
        options.sourceFiles = files
        options.collectFingerprints = request.collectFingerprints || request.baseline != nil || history != nil
        options.previousPaths = previousPaths
        options.changedOnly = request.changedOnly
        options.pushdown = request.pushdown
        options.memoryLimit = request.memoryLimit
        let engine = AuditEngine(registry: request.registry, options: options, toolVersion: request.toolVersion)
        let result: AuditResult
        do {
            result = try engine.run(plan)
        } catch {
            sink?.discard()
            throw error
        }
        var report = result.report
        if let baseline { report.applyBaseline(baseline.fingerprints, source: baseline.name) }
        report.failOnNew = request.failOnNew     // against the baseline, or the history's last run
        var outcome = AuditOutcome(report: report, plan: plan, inputErrors: result.inputErrors)
        outcome.catalog = catalog
        outcome.findingSink = sink
        outcome.protected = protected
        // An explicit baseline is applied above, before the history step.
        history?.finish(&outcome, rulesPath: plan.rulesPath, explicitBaseline: request.baseline != nil)
        return outcome
    }

    /// The history this run records into: ``AuditRequest/history``, else the rules file's `history:`.
    func historyPath(for plan: AuditPlan) -> String? {
        switch request.history {
        case .fromRules: return plan.historyPath
        case .path(let path): return path
        case .none: return nil
        }
    }
}
