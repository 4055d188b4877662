import Auditor

extension HTMLReporter.Page {
    /// Under the summary cards: what the run was compared with, and which rules jumped.
    func baselineNotes() -> String {
        var out = ""
        if let info = report.baseline {
            var text = t("html.baseline.compared", ["totals": BaselineText.totals(info, w)],
                         markup: ["source": "<span class=\"mono\">\(HTMLText.escaped(info.source))</span>"])
            if report.gatesOnNew { text += " " + t("baseline.gate") + "." }
            if let missing = BaselineText.missingRules(info, w) { text += " " + HTMLText.escaped(missing) + "." }
            if !report.complete {
                text += " " + t("html.baseline.incomplete")
            }
            out += "<p class=\"note\">\(text)</p>\n"
        }
        if hasTrends {
            let name = report.historyRun.map { w("history.run", ["run": "\($0)"]) } ?? w("history.name")
            let jumped = report.jumpedRules
            if jumped.isEmpty {
                out += "<p class=\"note\">\(t("history.noJump", ["name": name])).</p>\n"
            } else {
                let list = jumped.map { "<code>\(HTMLText.escaped($0.id))</code> (\(HTMLText.escaped(BaselineText.jump($0, w))))" }
                    .joined(separator: ", ")
                out += "<p class=\"note\">" + t("history.jumped", ["name": name, "count": n(jumped.count), "jumped": w("history.jumpedWord")],
                                                   markup: ["list": list]) + ".</p>\n"
            }
        }
        return out
    }

    /// The New, Existing and Resolved cells of a rules-table row; none without a baseline.
    func baselineCells(_ rule: RuleOutcome) -> String {
        guard report.baseline != nil else { return "" }
        guard let b = rule.baseline else { return "<td></td><td></td><td></td>" }
        return "<td class=\"n\(b.new > 0 ? " fresh" : "")\">\(NumberText.grouped(b.new))</td>"
            + "<td class=\"n\">\(NumberText.grouped(b.existing))</td><td class=\"n\">\(NumberText.grouped(b.resolved))</td>"
    }

    /// The Trend cell of a rules-table row (a sparkline and the jump badge); none without trends.
    func trendCell(_ rule: RuleOutcome) -> String {
        guard hasTrends else { return "" }
        guard let trend = rule.trend, trend.counts.count >= 2 else { return "<td></td>" }
        return "<td class=\"trend\">\(sparkline(trend))\(trend.jumped ? " " + jumpedBadge(rule) : "")</td>"
    }

    /// `jumped`, with the count and the median in its tooltip.
    func jumpedBadge(_ rule: RuleOutcome) -> String {
        "<span class=\"badge jumped\" title=\"\(HTMLText.escaped(BaselineText.jump(rule, w)))\">\(t("history.jumpedWord"))</span>"
    }

    /// `new` or `existing` for a finding compared with a baseline; empty otherwise.
    func newBadge(_ finding: Finding) -> String {
        switch finding.isNew {
        case true?: return "<span class=\"badge new\">\(t("finding.new"))</span>"
        case false?: return "<span class=\"badge existing\">\(t("md.existing"))</span>"
        case nil: return ""
        }
    }

    /// An inline SVG sparkline: one bar per run (the last ``Sparkline/maxRuns``), oldest
    /// first, on a scale from zero to the largest count; this run's bar is dark (red when it
    /// jumped), a zero is a thin grey line, and a dashed line marks the recent median. The
    /// `<title>` lists every count. Only numbers reach the markup.
    func sparkline(_ trend: RuleTrend) -> String {
        let counts = Array(trend.counts.suffix(Sparkline.maxRuns))
        let bar = 5, gap = 2, height = 20, usable = 18
        let width = counts.count * (bar + gap) - gap
        let top = max(1, counts.max() ?? 0)
        let listed = counts.map { n($0) }.joined(separator: ", ")
        var title = t("html.spark.title", ["runs": n(counts.count), "list": listed])
        if let median = trend.median { title += t("html.spark.median", ["median": w.number(Sparkline.medianText(median))]) }
        if trend.jumped { title += t("punctuation.semicolon") + t("history.jumpedWord") }
        var out = "<svg class=\"spark\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 \(width) \(height)\" "
            + "width=\"\(width)\" height=\"\(height)\"><title>\(title)</title>"
        for (i, count) in counts.enumerated() {
            let h = count <= 0 ? 1 : max(2, Int((Double(count) / Double(top) * Double(usable)).rounded()))
            var cls = count <= 0 ? "zero" : "run"
            if i == counts.count - 1 { cls += trend.jumped ? " now jumped" : " now" }
            out += "<rect class=\"\(cls)\" x=\"\(i * (bar + gap))\" y=\"\(height - h)\" width=\"\(bar)\" height=\"\(h)\"/>"
        }
        if let median = trend.median {
            let y = height - Int((median / Double(top) * Double(usable)).rounded())
            out += "<line class=\"median\" x1=\"0\" y1=\"\(y)\" x2=\"\(width)\" y2=\"\(y)\"/>"
        }
        return out + "</svg>"
    }
}
