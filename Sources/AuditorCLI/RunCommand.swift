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

    @Argument(help: "The rules file (YAML).")
    var rules: String

    @Option(name: .customLong("source"),
            help: ArgumentHelp("Replace a source's path, keeping its options.", valueName: "NAME=PATH"))
    var sources: [String] = []

    @Option(help: ArgumentHelp("Report format: \(StandardReporters.formats.joined(separator: ", ")).", valueName: "FORMAT"))
    var format: String = "text"

    @Option(name: [.short, .long], help: ArgumentHelp("Write the report to FILE (atomically) instead of stdout.", valueName: "FILE"))
    var output: String?

    @Option(name: [.short, .long], help: "Evaluation threads (default: the number of cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Sample findings kept per rule, and violating records kept per entity.")
    var maxSamples: Int = 20

    @Option(help: ArgumentHelp("The least severity that fails the run: error, warning or never.", valueName: "SEVERITY"))
    var failOn: String = "error"

    @Option(help: ArgumentHelp("Colour: auto, always or never.", valueName: "WHEN"))
    var color: String = "auto"

    @Option(help: ArgumentHelp("The reference time of freshness rules (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ; default now).", valueName: "TIME"))
    var asOf: String?

    @Option(help: .hidden)
    var chunkSize: Int = 8192

    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Show more (passing rules in the text report). Repeatable.")
    var verbose: Int

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
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard maxSamples >= 0 else { throw ValidationError("--max-samples must not be negative") }
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
        if let asOf, CLI.instant(asOf) == nil {
            throw ValidationError("--as-of must be a date (2026-11-20) or a UTC date-time (2026-11-20T06:00:00Z); got '\(asOf)'")
        }
        for s in sources where !s.contains("=") || s.hasPrefix("=") {
            throw ValidationError("--source takes NAME=PATH; got '\(s)'")
        }
    }

    func run() throws {
        let status = CLI.guarded {
            let plan = try CLI.loadPlan(rules)
            var paths = [String: String]()
            for s in sources {
                let eq = s.firstIndex(of: "=")!   // validate() checked that '=' is present
                let name = String(s[..<eq])
                guard plan.source(named: name) != nil else {
                    let known = plan.sources.map(\.name)
                    var m = "--source names an unknown source '\(name)'"
                    if let c = Suggest.closest(to: name, in: known) { m += "; did you mean '\(c)'?" } else { m += " (sources: \(known.joined(separator: ", ")))" }
                    throw AuditError(.usage, m)
                }
                paths[name] = String(s[s.index(after: eq)...])
            }
            let options = AuditOptions(jobs: jobs, chunkSize: chunkSize, maxSamples: maxSamples,
                                       failOn: FailThreshold(rawValue: failOn) ?? .error, sourcePaths: paths,
                                       progress: quiet ? nil : ProgressDisplay.make(),
                                       asOf: asOf.flatMap(CLI.instant) ?? Int64(Date().timeIntervalSince1970))
            let engine = AuditEngine(registry: StandardReaders.registry, options: options,
                                     toolVersion: AuditorCommand.version)
            let result = try engine.run(plan)
            ProgressDisplay.clear(quiet: quiet)
            let flag = ColorChoice.Flag(rawValue: color)
            let environment = ProcessInfo.processInfo.environment
            let useColor = format == "text" && (output == nil
                ? ColorChoice.forStream(STDOUT_FILENO, flag: flag, environment: environment)
                : ColorChoice.resolve(flag: flag, environment: environment, isTTY: false)).enabled
            guard let reporter = StandardReporters.reporter(format: format, color: useColor, verbose: verbose > 0) else {
                throw AuditError(.usage, "unknown format '\(format)'")
            }
            let text = reporter.render(result.report)
            if let output {
                try OutputFile.writeAtomically(text, to: output)
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
            for e in result.inputErrors { CLI.printError(e) }
            return result.exitStatus
        }
        throw ExitCode(status.rawValue)
    }
}
