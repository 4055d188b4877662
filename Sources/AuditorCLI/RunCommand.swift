import ArgumentParser
import Auditor
import Foundation
import AuditorReaders
import AuditorReports

/// `auditor run RULES`: audits the sources of a rules file and writes one report.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Audit the data a rules file names and report every violation.")

    @Argument(help: "The rules file (YAML).", completion: .file(extensions: ["yml", "yaml"]))
    var rules: String

    @Option(name: .customLong("source"), help: ArgumentHelp("Replace a source's path, keeping its options: a file, a folder (its files of the format, sorted) or a quoted glob ('parts/*.csv'). Once per source; NAME+=PATH adds a file, folder or glob to it instead (several files read as one source).", valueName: "NAME=PATH"), completion: .file())
    var sources: [String] = []
    @Option(name: .customLong("source-format"), help: ArgumentHelp("Read a source as this format (csv, xml, sqlite...): for standard input ('-', e.g. --source people=-) or a path whose extension does not tell it.", valueName: "NAME=FORMAT")) var sourceFormats: [String] = []

    @Option(name: .customLong("previous"), help: ArgumentHelp("The previous snapshot of a source (same format and options): records are matched by their entity's key and classified inserted, updated, deleted or unchanged, and lifecycle rules (on:, immutable, transitions, deleteRule) are checked. Repeatable.", valueName: "NAME=PATH"), completion: .file())
    var previous: [String] = []

    @Flag(help: "Evaluate rules only on records inserted or updated since --previous (cross-record rules still see every record's key).") var changedOnly = false
    @Flag(help: "Run the rules inside the database of every source that can (sqlite:, postgres:, spark: tables), as 'pushdown: true' on a source does: only counts and the records that may fail leave it. Same report as without.") var pushdown = false

    @Option(help: ArgumentHelp("Report format: \(StandardReporters.formats.joined(separator: ", ")).", valueName: "FORMAT"), completion: .list(StandardReporters.formats))
    var format: String = "text"

    @Option(help: ArgumentHelp("The markdown report's size budget in UTF-8 bytes (--format markdown or --report markdown:PATH); rules and samples that do not fit are cut, with '… and N more'.", valueName: "BYTES"))
    var maxBytes: Int = MarkdownReporter.defaultMaxBytes

    @Option(name: [.short, .long], help: ArgumentHelp("Write the report to FILE (atomically; '-' is stdout) instead of stdout. Never an input, the rules file or their SQLite sidecars.", valueName: "FILE"), completion: .file())
    var output: String?

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write a report in FORMAT to PATH (atomically); repeatable, e.g. --report html:out/report.html --report junit:out/junit.xml.", valueName: "FORMAT:PATH"), completion: .custom { _, _, prefix in Completions.reportRequests(prefix) })
    var reports: [String] = []

    @Option(help: ArgumentHelp("Stream every failing record with all its findings to FILE: .jsonl (one object per record) or .csv (one row per finding).", valueName: "FILE"), completion: .file(extensions: ["jsonl", "ndjson", "csv"]))
    var failuresOut: String?

    @Option(help: ArgumentHelp("Neutralise spreadsheet formulas in --failures-out CSV cells (a leading ' before = + - @ TAB CR LF): on or off.", valueName: "on|off"), completion: .list(["on", "off"]))
    var csvFormulaEscape: String = "on"

    @Option(help: ArgumentHelp("Messages from the catalog LOCALE.yml, looked up in the messages/ folder beside the rules file, then in each folder of $AUDITOR_MESSAGES_PATH (':'-separated); 'fr-CA' falls back to 'fr'; a path ending in .yml names a catalog file.", valueName: "LOCALE"), completion: .custom { words, _, _ in Completions.locales(words: words) })
    var locale: String?

    // No default value in the declaration: the parser would print it after the help's own
    // "(default: the number of cores)", which says what the default is on any machine.
    @Option(name: [.short, .long], help: ArgumentHelp("Evaluation threads (default: the number of cores; -vv shows how many were used).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("The memory an entity's key sets, of unique rules and of referenced keys together, may hold, e.g. 512M or 2G (powers of 1024; default: half the RAM). Beyond it they spill to disk, referenced keys first, and inputs are read again; same report.", valueName: "SIZE")) var memoryLimit: String?

    @Option(help: ArgumentHelp("Sample findings kept per rule, and violating records kept per entity.", valueName: "N"))
    var maxSamples: Int = 20

    @Option(help: ArgumentHelp("The least severity that fails the run: error, warning or never.", valueName: "SEVERITY"), completion: .list(FailThreshold.allCases.map(\.rawValue)))
    var failOn: String = "error"

    @Option(help: ArgumentHelp("Compare the findings with those of an earlier JSON report (only read, before the audit: it may be the --output file this run replaces): each is new or existing, and the baseline's findings that are gone are resolved.", valueName: "FILE"), completion: .file(extensions: ["json"]))
    var baseline: String?

    @Flag(help: "Fail only on rules with findings that are not in the baseline (--baseline, or the last run of --history).")
    var failOnNew = false

    @Option(help: ArgumentHelp("Colour: auto, always or never.", valueName: "WHEN"), completion: .list(ColorChoice.Flag.allCases.map(\.rawValue)))
    var color: String = "auto"

    @Option(help: ArgumentHelp("The reference time of freshness rules (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ; default now).", valueName: "TIME"))
    var asOf: String?

    @Option(help: ArgumentHelp("Record this run in the history database PATH (created when missing) and show each rule's trend; overrides the rules file's 'history:'. See 'auditor history'.", valueName: "PATH"), completion: .file())
    var history: String?

    @Flag(help: "Do not record this run, even if the rules file names a history.")
    var noHistory = false

    @Option(help: .hidden)
    var chunkSize: Int = 8192

    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "-v: passing rules, per-input sources and times in the text report. -vv: also trace the run on stderr (rules, threads, colour decision, each input's records and time, where each report went).")
    var verbose: Int

    /// `--jobs`, or the number of cores.
    var threads: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        let badPair = { (list: [String]) in list.first { AuditRequest.SourcePath(argument: $0) == nil }.map(TerminalText.escaped) }
        let problems: [String?] = [
            ReportRequest.problem(format: format, output: output, reports: []),
            FailThreshold(rawValue: failOn) == nil ? "--fail-on must be error, warning or never; got '\(failOn)'" : nil,
            ColorChoice.Flag(rawValue: color) == nil ? "--color must be auto, always or never; got '\(color)'" : nil,
            (jobs ?? 1) < 1 ? "--jobs must be at least 1" : nil,
            maxBytes < 256 ? "--max-bytes must be at least 256 (room for the verdict); got \(maxBytes)" : nil,
            maxSamples < 0 ? "--max-samples must not be negative" : nil,
            memoryLimit.map { AuditRequest.byteSize($0) == nil ? "--memory-limit must be a size of at least 1M, such as 512M or 2G; got '\(TerminalText.escaped($0))'" : nil } ?? nil,
            chunkSize < 1 ? "--chunk-size must be at least 1" : nil,
            asOf.map { AuditRequest.instant($0) == nil ? "--as-of must be a date (2026-11-20) or a UTC date-time (2026-11-20T06:00:00Z); got '\($0)'" : nil } ?? nil,
            badPair(sources).map { "--source takes NAME=PATH with a source name and a non-empty path, e.g. --source people=exports/people.csv; got '\($0)'" },
            badPair(sourceFormats).map { "--source-format takes NAME=FORMAT, e.g. --source-format people=csv; got '\($0)'" },
            badPair(previous).map { "--previous takes NAME=PATH, e.g. --previous people=exports/2026-11-20/people.csv; got '\($0)'" },
            changedOnly && previous.isEmpty ? "--changed-only needs --previous NAME=PATH: the snapshot to compare with" : nil,
            ReportRequest.problem(format: format, output: output, reports: reports),
            csvFormulaEscape != "on" && csvFormulaEscape != "off"
                ? "--csv-formula-escape must be on or off; got '\(TerminalText.escaped(csvFormulaEscape))'" : nil,
            history != nil && noHistory ? "--history and --no-history contradict each other; give one" : nil,
            failuresOut.map { FailuresFormat(path: $0) == nil ? "--failures-out needs a file ending in .jsonl, .ndjson or .csv; got '\(TerminalText.escaped($0))'" : nil } ?? nil,
            baseline?.isEmpty == true ? "--baseline needs a file: a JSON report of an earlier run" : nil,
            failOnNew && baseline == nil && history == nil && noHistory
                ? "--fail-on-new needs a baseline to tell new findings from existing ones: add --baseline FILE, a JSON report of an earlier run (--format json --output FILE)" : nil,
        ]
        if let problem = problems.lazy.compactMap({ $0 }).first { throw ValidationError(problem) }
    }

    func run() throws {
        let status = CLI.guarded {
            let outcome = try AuditSession(request()).run()
            let report = outcome.report
            ProgressDisplay.clear(quiet: quiet)
            trace(RunTrace.inputs(report))
            if !quiet { for note in outcome.notes { StandardStream.write(TerminalText.escaped(note) + "\n", to: STDERR_FILENO) } }
            if verbose > 0 { for line in outcome.details { StandardStream.write(line + "\n", to: STDERR_FILENO) } }
            let failures = outcome.findingSink as? FailuresFile
            var publisher = self.publisher
            publisher.wording = ReportWording(outcome.catalog)
            let writeErrors = publisher.publish(report, failures: failures, protected: outcome.protected)
            if let failures, !quiet {
                let note = "auditor: wrote \(Plural.count(failures.records, "failing record")), \(Plural.count(failures.findings, "finding")) to "
                    + TerminalText.escaped(failures.path) + "\n"
                StandardStream.write(note, to: STDERR_FILENO)
            }
            for e in outcome.inputErrors { CLI.printError(e) }
            for e in writeErrors { CLI.printError(e) }
            if let historyError = outcome.historyError { CLI.printError(historyError) }
            return outcome.exitStatus(writeErrors: writeErrors)
        }
        throw ExitCode(status.rawValue)
    }
}
