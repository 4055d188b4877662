import ArgumentParser
import Auditor
import Foundation
import Readers
import Reports

/// `auditor run RULES`: audits the sources of a rules file and writes one report.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Audit the data a rules file names and report every violation.")

    @Argument(help: "The rules file (YAML).", completion: .file(extensions: ["yml", "yaml"]))
    var rules: String

    @Option(name: .customLong("source"),
            help: ArgumentHelp("Replace a source's path, keeping its options.", valueName: "NAME=PATH"), completion: .file())
    var sources: [String] = []

    @Option(name: .customLong("previous"),
            help: ArgumentHelp("The previous snapshot of a source (same format and options): records are matched by their entity's key and classified inserted, updated, deleted or unchanged, and lifecycle rules (on:, immutable, transitions, deleteRule) are checked. Repeatable.",
                               valueName: "NAME=PATH"), completion: .file())
    var previous: [String] = []

    @Flag(help: "Evaluate rules only on records inserted or updated since --previous (cross-record rules still see every record's key).")
    var changedOnly = false

    @Option(help: ArgumentHelp("Report format: \(StandardReporters.formats.joined(separator: ", ")).", valueName: "FORMAT"),
            completion: .list(StandardReporters.formats))
    var format: String = "text"

    @Option(help: ArgumentHelp("The markdown report's size budget in UTF-8 bytes (--format markdown or --report markdown:PATH); rules and samples that do not fit are cut, with '… and N more'.",
                               valueName: "BYTES"))
    var maxBytes: Int = MarkdownReporter.defaultMaxBytes

    @Option(name: [.short, .long], help: ArgumentHelp("Write the report to FILE (atomically; '-' is stdout) instead of stdout. Never an input, the rules file or their SQLite sidecars.", valueName: "FILE"),
            completion: .file())
    var output: String?

    @Option(name: .customLong("report"),
            help: ArgumentHelp("Also write a report in FORMAT to PATH (atomically); repeatable, e.g. --report html:out/report.html --report junit:out/junit.xml.",
                               valueName: "FORMAT:PATH"),
            completion: .custom { _, _, prefix in Completions.reportRequests(prefix) })
    var reports: [String] = []

    @Option(help: ArgumentHelp("Stream every failing record with all its findings to FILE: .jsonl (one object per record) or .csv (one row per finding).",
                               valueName: "FILE"),
            completion: .file(extensions: ["jsonl", "ndjson", "csv"]))
    var failuresOut: String?

    @Option(help: ArgumentHelp("Neutralise spreadsheet formulas in --failures-out CSV cells (a leading ' before = + - @ TAB CR LF): on or off.",
                               valueName: "on|off"),
            completion: .list(["on", "off"]))
    var csvFormulaEscape: String = "on"

    @Option(help: ArgumentHelp("Messages from the catalog LOCALE.yml, looked up in the messages/ folder beside the rules file, then in each folder of $AUDITOR_MESSAGES_PATH (':'-separated); 'fr-CA' falls back to 'fr'; a path ending in .yml names a catalog file.",
                               valueName: "LOCALE"),
            completion: .custom { words, _, _ in Completions.locales(words: words) })
    var locale: String?

    // No default value in the declaration: the parser would print it after the help's own
    // "(default: the number of cores)", which says what the default is on any machine.
    @Option(name: [.short, .long],
            help: ArgumentHelp("Evaluation threads (default: the number of cores; -vv shows how many were used).",
                               valueName: "N"))
    var jobs: Int?

    @Option(help: "Sample findings kept per rule, and violating records kept per entity.")
    var maxSamples: Int = 20

    @Option(help: ArgumentHelp("The least severity that fails the run: error, warning or never.", valueName: "SEVERITY"),
            completion: .list(FailThreshold.allCases.map(\.rawValue)))
    var failOn: String = "error"

    @Option(help: ArgumentHelp("Compare the findings with those of an earlier JSON report (only read, before the audit: it may be the --output file this run replaces): each is new or existing, and the baseline's findings that are gone are resolved.",
                               valueName: "FILE"),
            completion: .file(extensions: ["json"]))
    var baseline: String?

    @Flag(help: "Fail only on rules with findings that are not in the baseline (--baseline, or the last run of --history).")
    var failOnNew = false

    @Option(help: ArgumentHelp("Colour: auto, always or never.", valueName: "WHEN"),
            completion: .list(ColorChoice.Flag.allCases.map(\.rawValue)))
    var color: String = "auto"

    @Option(help: ArgumentHelp("The reference time of freshness rules (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ; default now).", valueName: "TIME"))
    var asOf: String?

    @Option(help: ArgumentHelp("Record this run in the history database PATH (created when missing) and show each rule's trend; overrides the rules file's 'history:'. See 'auditor history'.",
                               valueName: "PATH"),
            completion: .file())
    var history: String?

    @Flag(help: "Do not record this run, even if the rules file names a history.")
    var noHistory = false

    @Option(help: .hidden)
    var chunkSize: Int = 8192

    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors.")
    var quiet = false

    @Flag(name: .shortAndLong,
          help: "-v: passing rules, per-input sources and times in the text report. -vv: also trace the run on stderr (rules, threads, colour decision, each input's records and time, where each report went).")
    var verbose: Int

    /// `--jobs`, or the number of cores.
    var threads: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        guard StandardReporters.formats.contains(format) else {
            throw ValidationError("unknown format '\(format)'; use one of: \(StandardReporters.formats.joined(separator: ", "))")
        }
        guard FailThreshold(rawValue: failOn) != nil else {
            throw ValidationError("--fail-on must be error, warning or never; got '\(failOn)'")
        }
        guard ColorChoice.Flag(rawValue: color) != nil else {
            throw ValidationError("--color must be auto, always or never; got '\(color)'")
        }
        guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard maxBytes >= 256 else { throw ValidationError("--max-bytes must be at least 256 (room for the verdict); got \(maxBytes)") }
        guard maxSamples >= 0 else { throw ValidationError("--max-samples must not be negative") }
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
        if let asOf, CLI.instant(asOf) == nil {
            throw ValidationError("--as-of must be a date (2026-11-20) or a UTC date-time (2026-11-20T06:00:00Z); got '\(asOf)'")
        }
        for s in sources where !s.contains("=") || s.hasPrefix("=") || s.hasSuffix("=") {
            throw ValidationError("--source takes NAME=PATH with a source name and a non-empty path, e.g. --source people=exports/people.csv; got '\(TerminalText.escaped(s))'")
        }
        for s in previous where !s.contains("=") || s.hasPrefix("=") || s.hasSuffix("=") {
            throw ValidationError("--previous takes NAME=PATH, e.g. --previous people=exports/2026-11-20/people.csv; got '\(TerminalText.escaped(s))'")
        }
        if changedOnly, previous.isEmpty {
            throw ValidationError("--changed-only needs --previous NAME=PATH: the snapshot to compare with")
        }
        var seen = Set<String>()
        for r in reports {
            guard let (format, path) = ReportRequest.parse(r) else {
                throw ValidationError("--report takes FORMAT:PATH, e.g. html:out/report.html; got '\(TerminalText.escaped(r))'")
            }
            guard StandardReporters.formats.contains(format) else {
                throw ValidationError("unknown format '\(TerminalText.escaped(format))' in --report; use one of: \(StandardReporters.formats.joined(separator: ", "))")
            }
            guard seen.insert(path).inserted, path != output else {
                throw ValidationError("--report names '\(TerminalText.escaped(path))' twice; give each report its own file")
            }
        }
        guard csvFormulaEscape == "on" || csvFormulaEscape == "off" else {
            throw ValidationError("--csv-formula-escape must be on or off; got '\(TerminalText.escaped(csvFormulaEscape))'")
        }
        if history != nil, noHistory {
            throw ValidationError("--history and --no-history contradict each other; give one")
        }
        if let failuresOut, FailuresFormat(path: failuresOut) == nil {
            throw ValidationError("--failures-out needs a file ending in .jsonl, .ndjson or .csv; got '\(TerminalText.escaped(failuresOut))'")
        }
        try validateBaseline()
    }

    func run() throws {
        let status = CLI.guarded {
            let catalog = try locale.map { try MessageLocale.catalog(for: $0, rulesPath: rules) } ?? .english
            let wording = ReportWording(catalog)
            let now = asOf.flatMap(CLI.instant) ?? Int64(Date().timeIntervalSince1970)
            let plan = try CLI.loadPlan(rules, catalog: catalog, now: now)
            traceSetup(plan)
            let paths = try Self.namedPaths(sources, flag: "--source", plan: plan)
            let previousPaths = try Self.namedPaths(previous, flag: "--previous", plan: plan)
            let loadedBaseline = try loadBaseline()     // before the audit writes anything
            let inputs = protectedFiles(plan: plan, sourcePaths: paths, previousPaths: previousPaths)
            var protected = inputs
            if let history = historyPath(for: plan) { protected.add(history, role: "the history database") }
            if failOnNew, baseline == nil, historyPath(for: plan) == nil {
                throw AuditError(.usage, "--fail-on-new needs a baseline to tell new findings from existing ones: add "
                                     + "--baseline FILE (a JSON report of an earlier run) or --history PATH (the last run recorded there)")
            }
            let historySession = try historyPath(for: plan).map {
                try HistorySession.start(path: $0, plan: plan, sourcePaths: paths, protected: inputs,
                                         outputs: [output, failuresOut].compactMap { $0 } + reports.compactMap { ReportRequest.parse($0)?.path })
            }
            try checkOutputs(protected)        // after the history's own checks (their messages are more precise)
            let failures = try failuresOut.map { try FailuresFile(path: $0, formulaEscape: csvFormulaEscape == "on", protecting: protected) }
            var options = AuditOptions(jobs: threads, chunkSize: chunkSize, maxSamples: maxSamples,
                                       failOn: FailThreshold(rawValue: failOn) ?? .error, sourcePaths: paths,
                                       progress: quiet ? nil : ProgressDisplay.make(), findingSink: failures,
                                       asOf: now)
            options.collectFingerprints = collectsFingerprints || historySession != nil
            options.previousPaths = previousPaths
            options.changedOnly = changedOnly
            let engine = AuditEngine(registry: StandardReaders.registry, options: options,
                                     toolVersion: AuditorCommand.version)
            var result: AuditResult
            do {
                result = try engine.run(plan)
            } catch {
                failures?.discard()
                throw error
            }
            apply(loadedBaseline, to: &result.report)
            ProgressDisplay.clear(quiet: quiet)
            traceInputs(result.report)
            var report = result.report
            report.failOnNew = failOnNew     // against --baseline, or the history's last run
            // An explicit --baseline is applied here, before the history step.
            let historyError = historySession?.finish(&report, rulesPath: rules, explicitBaseline: hasExplicitBaseline,
                                                      quiet: quiet, verbose: verbose > 0)
            let environment = ProcessInfo.processInfo.environment
            let base = FileManager.default.currentDirectoryPath
            var writeErrors: [AuditError] = []

            // The main report: stdout or --output.
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
            guard let reporter = StandardReporters.reporter(format: format, color: useColor, verbose: verbose > 0,
                                                            baseDirectory: base, unicode: unicode, maxBytes: maxBytes,
                                                            failures: link(page: reportFile), wording: wording) else {
                throw AuditError(.usage, "unknown format '\(format)'")
            }
            let text = reporter.render(report)
            trace(["\(format) report, \(text.utf8.count) bytes, to \(reportFile ?? "stdout")"])
            if let reportFile {
                do { try OutputFile.write(text, to: reportFile, protecting: protected) } catch let e as AuditError { writeErrors.append(e) }
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }

            // Every --report, each atomically; one that fails does not stop the others.
            for request in reports {
                guard let (name, path) = ReportRequest.parse(request),
                      let extra = StandardReporters.reporter(format: name, color: false, verbose: verbose > 0,
                                                             baseDirectory: base, unicode: unicode, maxBytes: maxBytes,
                                                             failures: link(page: path), wording: wording) else { continue }
                let rendered = extra.render(report)
                trace(["\(name) report, \(rendered.utf8.count) bytes, to \(path)"])
                do { try OutputFile.write(rendered, to: path, option: "--report", protecting: protected) } catch let e as AuditError {
                    writeErrors.append(e)
                }
            }

            // GitHub job summary: the reporter stays pure, the CLI appends.
            let formats = [format] + reports.compactMap { ReportRequest.parse($0)?.format }
            if formats.contains("github"), let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
                do { try StepSummary.append(report, to: summary, baseDirectory: base, protecting: protected,
                                                 wording: wording) } catch let e as AuditError {
                    CLI.printWarning(e)
                }
            }

            if let failures, !quiet {
                let note = "auditor: wrote \(failures.records) failing record(s), \(failures.findings) finding(s) to "
                    + TerminalText.escaped(failures.path) + "\n"
                FileHandle.standardError.write(Data(note.utf8))
            }
            for e in result.inputErrors { CLI.printError(e) }
            for e in writeErrors { CLI.printError(e) }
            if let historyError { CLI.printError(historyError) }
            if let first = writeErrors.first { return first.code.exitStatus }     // 73 cannot create, 74 write failed
            // Input errors (65, 66, 74, 75) before a history failure, which comes before rule failures.
            let status = report.exitStatus
            if let historyError, status == .passed || status == .ruleFailures { return historyError.code.exitStatus }
            return status
        }
        throw ExitCode(status.rawValue)
    }

    /// `NAME=PATH` options (`--source`, `--previous`) by source name.
    /// - Throws: ``AuditError`` `.usage` for a name the rules file does not declare.
    static func namedPaths(_ list: [String], flag: String, plan: AuditPlan) throws -> [String: String] {
        var paths = [String: String]()
        for s in list {
            let eq = s.firstIndex(of: "=")!   // validate() checked that '=' is present
            let name = String(s[..<eq])
            guard plan.source(named: name) != nil else {
                let known = plan.sources.map(\.name)
                var m = "\(flag) names an unknown source '\(TerminalText.escaped(name))'"
                if let c = Suggest.closest(to: name, in: known) { m += "; did you mean '\(c)'?" } else { m += " (sources: \(known.joined(separator: ", ")))" }
                throw AuditError(.usage, m)
            }
            paths[name] = String(s[s.index(after: eq)...])
        }
        return paths
    }
}
