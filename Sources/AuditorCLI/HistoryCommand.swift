import ArgumentParser
import Auditor
import Foundation
import AuditorHistory
import AuditorReports

/// `auditor history PATH`: each rule's violations over the last runs recorded with `--history`.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show each rule's violations over the last runs of a history database.",
        discussion: """
            Per rule: a sparkline and the counts of the last runs (oldest first), the median the \
            latest run's jump test used, the latest count, its new findings and JUMPED when the \
            count jumped well above its recent median; then the runs. Sparklines use Unicode \
            block characters whatever the output is (like every auditor report, the output is \
            UTF-8); --ascii draws them with ASCII. Reads the database only (exit 66 if missing).
            """)

    @Argument(help: "The history database (written by 'auditor run RULES --history PATH').", completion: .file())
    var path: String

    @Option(help: ArgumentHelp("Show only this rule.", valueName: "ID"))
    var rule: String?

    @Option(help: ArgumentHelp("Show the last N runs.", valueName: "N"))
    var last: Int = 10

    @Option(help: ArgumentHelp("Output format: text or json.", valueName: "FORMAT"), completion: .list(["text", "json"]))
    var format: String = "text"

    @Flag(help: "Draw sparklines with ASCII characters (_.-~=+*#) instead of Unicode blocks.")
    var ascii = false

    func validate() throws {
        guard last >= 1 else { throw ValidationError("--last must be at least 1") }
        guard format == "text" || format == "json" else {
            throw ValidationError("--format must be text or json; got '\(TerminalText.escaped(format))'")
        }
    }

    func run() throws {
        let status = CLI.guarded {
            let store = try HistoryStore(path: path, access: .readOnly)
            let overview = try store.overview(last: last, rule: rule)
            let text = format == "json" ? HistoryJSON().render(overview) : HistoryText(ascii: ascii).render(overview)
            try ReportPublisher.writeStandardOutput(text)
            return .passed
        }
        throw ExitCode(status.rawValue)
    }
}
