import Auditor

/// The `markdown` report: GitHub-flavoured Markdown for pull-request comments, chat and
/// `$GITHUB_STEP_SUMMARY` (the `github` format's job summary is this report, within what is
/// left of GitHub's 1 MiB per step).
///
/// In order: the verdict and why, the baseline's totals and the history's jumps, the totals,
/// a table of the violated rules with counts and rates (new / existing / resolved columns
/// against a baseline, a `▁▂▃▄▅▆▇█` trend with a history), the rules not evaluated, the first
/// samples of each violated rule (folded, new ones marked), and the inputs. Every data value
/// goes through ``GitHubText/markdown(_:)``.
///
/// The whole text is at most ``maxBytes`` UTF-8 bytes. The verdict, totals and inputs always
/// come first; then rule rows while they fit, then each rule's samples while they fit (a rule's
/// table is shortened to the samples that fit before it is left out). Whatever is cut is
/// announced with "… and N more", so a reader knows what to look for in the JSON or HTML report.
public struct MarkdownReporter: Reporter {
    /// Always `markdown`.
    public var format: String { "markdown" }
    /// The most UTF-8 bytes the report may take (`--max-bytes`).
    public var maxBytes: Int
    /// The most samples shown per rule, before the size budget cuts more.
    public var samplesPerRule: Int
    /// The report's own words (titles, columns, verdict), from the `--locale` catalog.
    public var wording: ReportWording

    /// `--max-bytes`'s default: 64 KiB, a comfortable pull-request comment (GitHub allows 65,536
    /// characters in one) and well under a job summary's 1 MiB.
    public static let defaultMaxBytes = 64 * 1024

    /// Creates a reporter.
    /// - Parameters:
    ///   - maxBytes: The size budget in UTF-8 bytes (at least 1).
    ///   - samplesPerRule: The most samples listed per rule.
    ///   - wording: The report's own words; English by default.
    public init(maxBytes: Int = MarkdownReporter.defaultMaxBytes, samplesPerRule: Int = 20, wording: ReportWording = .english) {
        self.maxBytes = max(1, maxBytes)
        self.samplesPerRule = max(0, samplesPerRule)
        self.wording = wording
    }

    /// Renders the report within ``maxBytes``.
    /// - Complexity: O(rules + shown samples), each sample table built at most twice.
    public func render(_ report: AuditReport) -> String {
        let w = wording
        let head = Self.head(report, w)
        let tail = Self.inputs(report, w)
        var body = ""
        let ruleRows = Self.ruleRows(report, w)
        let unevaluated = Self.unevaluated(report, w)
        // Room for the rule rows and the not-evaluated table, with a note in reserve.
        let reserve = 200
        var room = maxBytes - head.utf8.count - tail.utf8.count - reserve
        if !ruleRows.rows.isEmpty {
            var table = ruleRows.header
            var shown = 0
            for row in ruleRows.rows where table.utf8.count + row.utf8.count <= room {
                table += row
                shown += 1
            }
            if shown < ruleRows.rows.count {
                let note = "\n_" + w("md.moreRules", ["count": w.number(NumberText.grouped(ruleRows.rows.count - shown)),
                                                       "budget": w.number(NumberText.bytes(Int64(maxBytes)))]) + "_\n"
                // No room for even one row: the note alone.
                table = shown == 0 ? String(note.dropFirst()) : table + note
            }
            body += table + "\n"
        }
        if unevaluated.utf8.count <= room - body.utf8.count { body += unevaluated }
        room = maxBytes - head.utf8.count - body.utf8.count - tail.utf8.count - reserve
        body += samples(report, budget: room)
        let out = head + body + tail
        guard out.utf8.count > maxBytes else { return out }
        return Self.cut(out, limit: maxBytes, w)
    }

    /// Cuts `text` at the last line boundary that leaves room for an "… and N more bytes" line.
    static func cut(_ text: String, limit: Int, _ w: ReportWording = .english) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out = ""
        var kept = 0
        let reserve = 80
        for line in lines {
            if out.utf8.count + line.utf8.count + 1 > limit - reserve { break }
            out += line + "\n"
            kept += 1
        }
        let note = "\n_" + w("md.cut", ["count": w.number(NumberText.grouped(lines.count - kept)),
                                         "limit": w.number(NumberText.bytes(Int64(limit)))]) + "_\n"
        if out.utf8.count + note.utf8.count <= limit { return out + note }
        // A limit too small even for the note: whole lines only.
        var bare = ""
        for line in lines {
            if bare.utf8.count + line.utf8.count + 1 > limit { break }
            bare += line + "\n"
        }
        return bare
    }

    /// The verdict, its reasons, baseline and history notes, and the totals.
    static func head(_ report: AuditReport, _ w: ReportWording = .english) -> String {
        let md = GitHubText.markdown
        let n = { (value: Int) in w.number(NumberText.grouped(value)) }
        let explanation = RunExplanation(report: report, w: w)
        let icon = report.outcome == .passed ? "✅" : "❌"
        var head = "## \(icon) auditor: \(explanation.verdict)\(w("result.exit", ["status": String(report.exitStatus.rawValue)]))\n\n"
        head += explanation.reasons.map { "- " + md($0) }.joined(separator: "\n") + "\n\n"
        head += baselineLines(report, w)
        head += "| " + w("md.columns.totals") + " |\n|---:|---:|---:|---:|---:|---:|\n"
        head += "| \(n(report.totalRecords)) | \(n(report.violatingRecords)) | "
            + "\(n(report.rules.count)) | \(n(report.failingRules.count)) | "
            + "\(n(report.toleratedRules.count)) | "
            + "\(n(report.rules.reduce(0) { $0 + $1.violations })) |\n\n"
        return head
    }

    /// The violated rules' table: its header and one row per rule.
    static func ruleRows(_ report: AuditReport, _ w: ReportWording = .english) -> (header: String, rows: [String]) {
        let md = GitHubText.markdown
        let n = { (value: Int) in w.number(NumberText.grouped(value)) }
        let violated = report.rules.filter { $0.violations > 0 }
        guard !violated.isEmpty else { return ("", []) }
        let compared = report.baseline != nil
        let trends = report.rules.contains { $0.trend != nil }
        let existingOnly = Set(report.existingOnlyRules.map(\.id))
        let header = "### " + w("md.violatedTitle") + "\n\n| " + w("md.columns.rules") + " | "
            + (compared ? w("md.columns.baseline") + " | " : "") + (trends ? w("md.columns.trend") + " | " : "")
            + w("md.columns.rate") + " |\n"
            + "|---|---|---|---:|" + (compared ? "---:|---:|---:|" : "") + (trends ? "---|" : "") + "---:|---|---|\n"
        let rows = violated.map { rule -> String in
            let status = rule.status == .tolerated ? w("status.tolerated")
                : existingOnly.contains(rule.id) ? w("md.status.existingOnly")
                : report.failOn.fails(rule.severity) ? "**" + w("md.status.failed") + "**" : w("md.status.violated")
            var row = "| \(status) | \(md(rule.id)) | \(rule.severity.rawValue) | "
                + w("md.count", ["violations": n(rule.violations), "evaluated": n(rule.evaluated)]) + " | "
            if compared {
                let b = rule.baseline
                row += "\(b.map { $0.new > 0 ? "**\(n($0.new))**" : "0" } ?? "") | "
                    + "\(b.map { n($0.existing) } ?? "") | \(b.map { n($0.resolved) } ?? "") | "
            }
            if trends { row += trendCell(rule) + " | " }
            let rate = w("number.percent", ["rate": w.number(String(NumberText.percent(rule.violations, of: rule.evaluated).dropLast()))])
            row += "\(rate) | "
                + "\(rule.threshold.isEmpty ? w("md.none") : md(rule.threshold.description)) | \(md(rule.summary))"
                + rule.hookSuppressions.map {
                    " _(" + md(w("rule.suppressedByHook", ["count": n($0.count), "hook": $0.hook])) + ")_"
                }.joined() + " |\n"
            return row
        }
        return (header, rows)
    }

    /// The rules no record was checked against, or nothing.
    static func unevaluated(_ report: AuditReport, _ w: ReportWording = .english) -> String {
        let md = GitHubText.markdown
        let rules = NotEvaluatedText.rules(report)
        guard !rules.isEmpty else { return "" }
        var out = "### " + w("md.unevaluatedTitle") + "\n\n" + w("md.unevaluatedIntro") + "\n\n| "
            + w("md.columns.unevaluated") + " |\n|---|---|\n"
        for rule in rules { out += "| \(md(rule.id)) | \(md(NotEvaluatedText.reason(rule, report, w))) |\n" }
        return out + "\n"
    }

    /// The inputs' table and the run's footer.
    static func inputs(_ report: AuditReport, _ w: ReportWording = .english) -> String {
        let md = GitHubText.markdown
        var tail = "### " + w("md.inputsTitle") + "\n\n| " + w("md.columns.inputs") + " |\n|---|---|---:|---|\n"
        for input in report.inputs {
            let status = input.complete ? w("inputs.complete")
                : "**" + w("md.status.incomplete") + "**"
                    + (input.errorStatus.map { w("result.exit", ["status": String($0.rawValue)]) } ?? "") + ": "
                    + md(input.error ?? w("inputs.noReason"))
            tail += "| \(md(input.path)) | \(md(input.format)) | \(w.number(NumberText.grouped(input.records))) | \(status) |\n"
        }
        tail += "\n_" + w("md.footer", ["version": md(report.toolVersion), "rules": md(report.rulesFile),
                                       "started": NumberText.iso8601(report.startedAt),
                                       "took": w.number(NumberText.seconds(report.durationSeconds))]) + "_\n"
        return tail
    }

    /// Each violated rule's first samples, folded, within `budget` bytes; "… and N more" for
    /// what did not fit.
    func samples(_ report: AuditReport, budget: Int) -> String {
        let violated = report.rules.filter { $0.violations > 0 && !$0.samples.isEmpty }
        guard !violated.isEmpty else { return "" }
        let noteReserve = 260
        var out = ""
        var left = 0
        for (index, rule) in violated.enumerated() {
            let limit = min(samplesPerRule, rule.samples.count)
            var block = sampleBlock(rule, report: report, count: limit)
            var count = limit
            // Shorten the table until it fits (halving keeps this to a few tries).
            while count > 1, out.utf8.count + block.utf8.count > budget - noteReserve {
                count /= 2
                block = sampleBlock(rule, report: report, count: count)
            }
            if count == 0 || out.utf8.count + block.utf8.count > budget - noteReserve {
                left = violated.count - index
                break
            }
            out += block
        }
        let w = wording
        var text = out.isEmpty ? "" : "### " + w("md.samplesTitle") + "\n\n" + out
        if left > 0 {
            text += "\n_" + w("md.samplesLeft", ["budget": w.number(NumberText.bytes(Int64(maxBytes))),
                                                "count": w.number(NumberText.grouped(left))]) + "_\n\n"
        }
        return text
    }

    /// One rule's `<details>` block with its first `count` samples.
    func sampleBlock(_ rule: RuleOutcome, report: AuditReport, count: Int) -> String {
        let md = GitHubText.markdown
        let w = wording
        let n = { (value: Int) in w.number(NumberText.grouped(value)) }
        var block = "<details><summary>\(md(rule.id)): " + w("entity.violations", ["count": n(rule.violations)])
            + (count < rule.violations ? ", " + w("md.shown", ["count": n(count)]) : "") + "</summary>\n\n"
            + "| " + w("md.columns.samples") + " |" + (report.baseline != nil ? " " + w("md.columns.samplesBaseline") + " |" : "")
            + "\n|---|---|---|---|" + (report.baseline != nil ? "---|" : "") + "\n"
        for f in rule.samples.prefix(count) {
            block += "| \(md(f.location.description)) | \(md(f.key ?? "")) | \(f.value.map(md) ?? "_" + w("md.missing") + "_") | "
                + "\(md(f.message)) |" + (f.isNew.map { $0 ? " **" + w("finding.new") + "** |" : " " + w("md.existing") + " |" } ?? "") + "\n"
        }
        if count < rule.samples.count {
            block += "\n_" + w("md.moreSamples", ["count": n(rule.samples.count - count)]) + "_\n"
        }
        return block + "\n</details>\n\n"
    }
}
