import Auditor

extension GitHubReporter {
    /// The job summary in GitHub-flavoured Markdown, at most `limit` UTF-8 bytes: the verdict
    /// and why, the totals, the violated rules, sampled findings per rule (folded), and the
    /// inputs. Sample tables are dropped, rule by rule, when the limit would be passed, and a
    /// note says so. Every data value goes through ``GitHubText/markdown(_:)``.
    /// - Parameter limit: The most bytes (GitHub allows 1 MiB per step; pass what is left).
    public func summaryMarkdown(_ report: AuditReport, limit: Int = GitHubReporter.summaryLimit) -> String {
        let md = GitHubText.markdown
        let explanation = RunExplanation(report: report)
        let icon = report.outcome == .passed ? "✅" : "❌"
        var head = "## \(icon) auditor: \(explanation.verdict) (exit \(report.exitStatus.rawValue))\n\n"
        head += explanation.reasons.map { "- " + md($0) }.joined(separator: "\n") + "\n\n"
        head += "| Records | With findings | Rules | Failing | Tolerated | Violations |\n|---:|---:|---:|---:|---:|---:|\n"
        head += "| \(NumberText.grouped(report.totalRecords)) | \(NumberText.grouped(report.violatingRecords)) | "
            + "\(NumberText.grouped(report.rules.count)) | \(NumberText.grouped(report.failingRules.count)) | "
            + "\(NumberText.grouped(report.toleratedRules.count)) | "
            + "\(NumberText.grouped(report.rules.reduce(0) { $0 + $1.violations })) |\n\n"
        let violated = report.rules.filter { $0.violations > 0 }
        if !violated.isEmpty {
            head += "### Rules with violations\n\n| Status | Rule | Severity | Violations | Rate | Threshold | Requirement |\n"
                + "|---|---|---|---:|---:|---|---|\n"
            for rule in violated {
                let status = rule.status == .tolerated ? "tolerated"
                    : report.failOn.fails(rule.severity) ? "**failed**" : "violated"
                head += "| \(status) | \(md(rule.id)) | \(rule.severity.rawValue) | "
                    + "\(NumberText.grouped(rule.violations)) of \(NumberText.grouped(rule.evaluated)) | "
                    + "\(NumberText.percent(rule.violations, of: rule.evaluated)) | "
                    + "\(rule.threshold.isEmpty ? "none" : md(rule.threshold.description)) | \(md(rule.summary)) |\n"
            }
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
                + "| Location | Key | Value | Message |\n|---|---|---|---|\n"
            for f in rule.samples {
                block += "| \(md(f.location.description)) | \(md(f.key ?? "")) | \(f.value.map(md) ?? "_missing_") | "
                    + "\(md(f.message)) |\n"
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
