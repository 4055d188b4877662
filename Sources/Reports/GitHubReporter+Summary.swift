import Auditor

extension GitHubReporter {
    /// The job summary in GitHub-flavoured Markdown, at most `limit` UTF-8 bytes: the verdict
    /// and why, the baseline's totals and the history's jumps, the totals, the violated rules
    /// (with new / existing / resolved columns against a baseline, a `▁▂▃▄▅▆▇█` trend with a
    /// history), sampled findings per rule (folded, new ones marked), and the inputs. Sample tables are dropped, rule by rule, when the limit would be passed, and a
    /// note says so. Every data value goes through ``GitHubText/markdown(_:)``.
    /// - Parameter limit: The most bytes (GitHub allows 1 MiB per step; pass what is left).
    public func summaryMarkdown(_ report: AuditReport, limit: Int = GitHubReporter.summaryLimit) -> String {
        let md = GitHubText.markdown
        let explanation = RunExplanation(report: report)
        let icon = report.outcome == .passed ? "✅" : "❌"
        var head = "## \(icon) auditor: \(explanation.verdict) (exit \(report.exitStatus.rawValue))\n\n"
        head += explanation.reasons.map { "- " + md($0) }.joined(separator: "\n") + "\n\n"
        head += baselineLines(report)
        head += "| Records | With findings | Rules | Failing | Tolerated | Violations |\n|---:|---:|---:|---:|---:|---:|\n"
        head += "| \(NumberText.grouped(report.totalRecords)) | \(NumberText.grouped(report.violatingRecords)) | "
            + "\(NumberText.grouped(report.rules.count)) | \(NumberText.grouped(report.failingRules.count)) | "
            + "\(NumberText.grouped(report.toleratedRules.count)) | "
            + "\(NumberText.grouped(report.rules.reduce(0) { $0 + $1.violations })) |\n\n"
        let violated = report.rules.filter { $0.violations > 0 }
        if !violated.isEmpty {
            let compared = report.baseline != nil
            let trends = report.rules.contains { $0.trend != nil }
            let existingOnly = Set(report.existingOnlyRules.map(\.id))
            head += "### Rules with violations\n\n| Status | Rule | Severity | Violations | "
                + (compared ? "New | Existing | Resolved | " : "") + (trends ? "Trend | " : "")
                + "Rate | Threshold | Requirement |\n"
                + "|---|---|---|---:|" + (compared ? "---:|---:|---:|" : "") + (trends ? "---|" : "") + "---:|---|---|\n"
            for rule in violated {
                let status = rule.status == .tolerated ? "tolerated"
                    : existingOnly.contains(rule.id) ? "existing only"
                    : report.failOn.fails(rule.severity) ? "**failed**" : "violated"
                head += "| \(status) | \(md(rule.id)) | \(rule.severity.rawValue) | "
                    + "\(NumberText.grouped(rule.violations)) of \(NumberText.grouped(rule.evaluated)) | "
                if compared {
                    let b = rule.baseline
                    head += "\(b.map { $0.new > 0 ? "**\(NumberText.grouped($0.new))**" : "0" } ?? "") | "
                        + "\(b.map { NumberText.grouped($0.existing) } ?? "") | \(b.map { NumberText.grouped($0.resolved) } ?? "") | "
                }
                if trends { head += trendCell(rule) + " | " }
                head += "\(NumberText.percent(rule.violations, of: rule.evaluated)) | "
                    + "\(rule.threshold.isEmpty ? "none" : md(rule.threshold.description)) | \(md(rule.summary)) |\n"
            }
            head += "\n"
        }
        let unevaluated = NotEvaluatedText.rules(report)
        if !unevaluated.isEmpty {
            head += "### Rules not evaluated\n\nNo record was checked: these rules did not pass.\n\n| Rule | Why |\n|---|---|\n"
            for rule in unevaluated { head += "| \(md(rule.id)) | \(md(NotEvaluatedText.reason(rule, report))) |\n" }
            head += "\n"
        }
        var tail = "### Inputs\n\n| Path | Format | Records | Status |\n|---|---|---:|---|\n"
        for input in report.inputs {
            let status = input.complete ? "read completely"
                : "**incomplete**" + (input.errorStatus.map { " (exit \($0.rawValue))" } ?? "") + ": "
                    + md(input.error ?? "the reader gave no reason")
            tail += "| \(md(input.path)) | \(md(input.format)) | \(NumberText.grouped(input.records)) | \(status) |\n"
        }
        tail += "\n_auditor \(md(report.toolVersion)), rules \(md(report.rulesFile)), started "
            + "\(NumberText.iso8601(report.startedAt)), took \(NumberText.seconds(report.durationSeconds))._\n"
        let truncatedNote = "\n_Some sample tables were left out to keep this summary under 1 MiB; "
            + "the HTML, JSON or failures-out reports have them all._\n\n"
        var samples = ""
        var truncated = false
        let budget = limit - head.utf8.count - tail.utf8.count - truncatedNote.utf8.count
        for rule in violated where !rule.samples.isEmpty {
            var block = "<details><summary>\(md(rule.id)): \(Plural.count(rule.violations, "violation"))"
                + (rule.sampled ? ", \(rule.samples.count) shown" : "") + "</summary>\n\n"
                + "| Location | Key | Value | Message |" + (report.baseline != nil ? " Baseline |" : "")
                + "\n|---|---|---|---|" + (report.baseline != nil ? "---|" : "") + "\n"
            for f in rule.samples {
                block += "| \(md(f.location.description)) | \(md(f.key ?? "")) | \(f.value.map(md) ?? "_missing_") | "
                    + "\(md(f.message)) |" + (f.isNew.map { $0 ? " **new** |" : " existing |" } ?? "") + "\n"
            }
            block += "\n</details>\n\n"
            if samples.utf8.count + block.utf8.count > budget {
                truncated = true
                continue
            }
            samples += block
        }
        if !samples.isEmpty { samples = "### Samples\n\n" + samples }
        let out = head + samples + (truncated ? truncatedNote : "") + tail
        // The head alone can pass a tiny limit: cut at a line boundary rather than exceed it.
        guard out.utf8.count > limit else { return out }
        var cut = ""
        for line in out.split(separator: "\n", omittingEmptySubsequences: false) {
            if cut.utf8.count + line.utf8.count + 1 > limit { break }
            cut += line + "\n"
        }
        return cut
    }
}

extension GitHubReporter {
    /// `Baseline \`out/baseline.json\`: 5 new, …` and `History run 12: …` paragraphs, or nothing.
    func baselineLines(_ report: AuditReport) -> String {
        let md = GitHubText.markdown
        var out = ""
        if let info = report.baseline {
            out += "Baseline \(md(info.source)): " + BaselineText.totals(info)
                + (report.gatesOnNew ? "; --fail-on-new: only rules with new findings fail the run" : "") + ".\n"
            if let missing = BaselineText.missingRules(info) { out += "\n" + md(missing) + ".\n" }
            out += "\n"
        }
        if report.historyRun != nil || report.rules.contains(where: { $0.trend != nil }) {
            let name = report.historyRun.map { "History run \($0)" } ?? "History"
            let jumped = report.jumpedRules
            out += jumped.isEmpty ? "\(name): no rule jumped above its recent median.\n\n"
                : "\(name): **\(Plural.count(jumped.count, "rule")) jumped** well above "
                    + "\(jumped.count == 1 ? "its" : "their") recent median: "
                    + jumped.map { "\(md($0.id)) (\(BaselineText.jump($0)))" }.joined(separator: ", ") + ".\n\n"
        }
        return out
    }

    /// `▅▄▅▅▅▅▄█ 5 → 12 **jumped**`: a rule's trend for a table cell; empty without one.
    func trendCell(_ rule: RuleOutcome) -> String {
        guard let trend = rule.trend, trend.counts.count >= 2 else { return "" }
        let counts = trend.counts.suffix(Sparkline.maxRuns)
        return Sparkline.text(trend.counts, unicode: true)
            + " \(NumberText.grouped(counts.first ?? 0)) → \(NumberText.grouped(counts.last ?? 0))"
            + (trend.jumped ? " **jumped**" : "")
    }
}
