import Auditor

extension HTMLReporter.Page {
    /// The rules of one entity, or of a source that no entity lists (as in the text report).
    struct Group {
        var title: String
        var source: String
        var entity: EntityOutcome?
        /// Indexes into `report.rules`.
        var rules: [Int]
    }

    func groups() -> [Group] {
        var groups = report.entities.map { entity in
            Group(title: entity.name, source: entity.source, entity: entity,
                  rules: entity.ruleIDs.compactMap { ruleIndex[$0] })
        }
        let listed = Set(report.entities.flatMap(\.ruleIDs))
        var orphan: [String: Int] = [:]
        for (i, rule) in report.rules.enumerated() where !listed.contains(rule.id) {
            if let g = orphan[rule.source] {
                groups[g].rules.append(i)
            } else {
                orphan[rule.source] = groups.count
                groups.append(Group(title: w("entity.source", ["source": rule.source]), source: rule.source, entity: nil, rules: [i]))
            }
        }
        return groups
    }

    /// The anchor of a rule's sample section: generated, never derived from data.
    func anchor(_ group: Int, _ rule: Int) -> String { "g\(group)-r\(rule)" }

    func ruleSections() -> String {
        var out = "<section id=\"rules\">\n<h2>\(t("html.rulesTitle"))</h2>\n"
        func legend(_ status: String, _ key: String) -> String {
            "<span class=\"badge st-\(status)\">\(word(status))</span> " + t(key, ["failOn": report.failOn.rawValue])
        }
        out += "<p class=\"legend\">" + legend("failed", "html.legend.failed") + " · " + legend("violated", "html.legend.violated") + " · "
            + (report.gatesOnNew ? legend("existing", "html.legend.existing") + " · " : "")
            + legend("tolerated", "html.legend.tolerated") + " · " + legend("passed", "html.legend.passed") + " · "
            + legend("not-evaluated", "html.legend.notEvaluated") + "</p>\n"
        let paths = Dictionary(report.inputs.filter { !$0.isPrevious }.map { ($0.source, $0.path) },
                               uniquingKeysWith: { first, _ in first })
        for (g, group) in groups().enumerated() {
            var meta = [String]()
            if let path = paths[group.source] { meta.append("<span class=\"mono\">\(HTMLText.escaped(path))</span>") }
            if let e = group.entity {
                meta.append(t("entity.records", ["count": n(e.records)]))
                meta.append(t("entity.withFindings", ["count": n(e.violatingRecords)]))
                meta.append(t("entity.violations", ["count": n(e.violations)]))
            }
            out += "<details class=\"entity\" open><summary><h3>\(HTMLText.escaped(group.title))</h3>"
                + "<span class=\"meta\">\(meta.joined(separator: " · "))</span></summary>\n"
            if let lifecycle = group.entity?.lifecycle {
                out += "<p class=\"changes\">\(HTMLText.escaped(LifecycleText.summary(lifecycle, w)))</p>\n"
                if !lifecycle.samples.isEmpty {
                    out += "<details><summary>\(t("html.lifecycle.samples"))</summary><ul class=\"mono\">"
                        + lifecycle.samples.map { "<li>\(HTMLText.escaped(LifecycleText.change($0)))</li>" }.joined()
                        + "</ul></details>\n"
                }
            }
            if let e = group.entity, let empty = NotEvaluatedText.emptyEntities(report).first(where: { $0.entity.name == e.name }) {
                out += "<p class=\"note\">\(t("html.warning", ["warning": NotEvaluatedText.warning(empty, w)]))</p>\n"
            }
            out += rulesTable(g, group)
            // Violated rules: beyond the threshold first, most severe first, then tolerated.
            let violated = group.rules.enumerated().filter { report.rules[$0.element].violations > 0 }
                .sorted { a, b in
                    let ra = report.rules[a.element], rb = report.rules[b.element]
                    let ta = ra.status == .tolerated, tb = rb.status == .tolerated
                    if ta != tb { return tb }
                    return ra.severity != rb.severity ? ra.severity > rb.severity : a.offset < b.offset
                }
                .map(\.element)
            for i in violated { out += sampleSection(g, i) }
            out += "</details>\n"
        }
        if report.rules.isEmpty { out += "<p>\(t("html.noRules"))</p>\n" }
        return out + "</section>\n"
    }

    func rulesTable(_ g: Int, _ group: Group) -> String {
        var out = "<div class=\"scroll\"><table class=\"rules\"><thead><tr>" + headers("html.columns.rules", numeric: [3, 4])
            + (report.baseline == nil ? "" : headers("md.columns.baseline", numeric: [0, 1, 2]))
            + (hasTrends ? headers("md.columns.trend") : "")
            + headers("html.columns.rulesEnd", numeric: [0, 1]) + "</tr></thead><tbody>\n"
        for i in group.rules {
            let rule = report.rules[i]
            let id = HTMLText.escaped(rule.id)
            let name = rule.violations > 0 ? "<a href=\"#\(anchor(g, i))\"><code>\(id)</code></a>" : "<code>\(id)</code>"
            var requirement = HTMLText.escaped(rule.summary)
            if let d = rule.description { requirement += "<br><span class=\"note\">\(HTMLText.escaped(d))</span>" }
            if rule.skipped > 0 { requirement += " <span class=\"note\">(\(t("rule.skipped", ["count": n(rule.skipped)])))</span>" }
            if rule.suppressed > 0 { requirement += " <span class=\"note\">(\(t("rule.suppressed", ["count": n(rule.suppressed)])))</span>" }
            for (hook, count) in rule.hookSuppressions {
                requirement += " <span class=\"note\">(\(t("rule.suppressedByHook", ["count": n(count), "hook": hook])))</span>"
            }
            if rule.status == .notEvaluated {
                requirement += " <span class=\"note\">(\(t("html.notEvaluatedBecause", ["reason": NotEvaluatedText.reason(rule, report, w)])))</span>"
            }
            out += "<tr class=\"row-\(status(rule))\" data-rule=\"\(i)\" data-failing=\"\(fails(rule) ? 1 : 0)\">"
                + "<td>\(badge(rule))</td><td>\(name)</td>"
                + "<td class=\"sev-\(rule.severity.rawValue)\">\(rule.severity.rawValue)</td><td class=\"n\">\(rule.code)</td>"
                + "<td class=\"n\">\(n(rule.violations))</td>" + baselineCells(rule) + trendCell(rule)
                + "<td class=\"n\">\(n(rule.evaluated))</td>"
                + "<td class=\"n\">\(percent(rule.violations, of: rule.evaluated))</td>"
                + "<td>\(rule.threshold.isEmpty ? t("md.none") : HTMLText.escaped(rule.threshold.description))</td>"
                + "<td>\(requirement)</td><td class=\"mono\">\(HTMLText.escaped(rule.definedAt ?? ""))</td></tr>\n"
        }
        return out + "</tbody></table></div>\n"
    }

    /// A violated rule's samples: location, key, value, message.
    func sampleSection(_ g: Int, _ i: Int) -> String {
        let rule = report.rules[i]
        let s = status(rule)
        var out = "<details class=\"rule st-\(s)\" id=\"\(anchor(g, i))\" open data-rule=\"\(i)\" "
            + "data-failing=\"\(fails(rule) ? 1 : 0)\"><summary>\(badge(rule)) <code>\(HTMLText.escaped(rule.id))</code>"
            + "<span class=\"meta\">" + t("rule.count", ["violations": w("entity.violations", ["count": n(rule.violations)]),
                                                           "evaluated": n(rule.evaluated)])
            + " (\(percent(rule.violations, of: rule.evaluated))) · \(rule.severity.rawValue) · \(t("html.code", ["code": "\(rule.code)"]))"
            + (rule.baseline.map { " · " + Self.text(BaselineText.counts($0, w)) } ?? "") + "</span>"
            + (rule.trend?.jumped == true ? " " + jumpedBadge(rule) : "")
            + "</summary>\n"
        var notes = [HTMLText.escaped(rule.summary)]
        if let d = rule.description { notes.append(HTMLText.escaped(d)) }
        if let h = rule.hint { notes.append(t("rule.hint", markup: ["hint": HTMLText.escaped(h)])) }
        let threshold = ["threshold": HTMLText.escaped(rule.threshold.description)]
        if rule.status == .tolerated {
            notes.append(t("html.note.tolerated", markup: threshold))
        } else if !rule.threshold.isEmpty {
            notes.append(t("html.note.exceeded", markup: threshold))
        }
        if let at = rule.definedAt { notes.append(t("rule.definedAt", markup: ["location": "<span class=\"mono\">\(HTMLText.escaped(at))</span>"])) }
        if existingOnlyIDs.contains(rule.id) {
            notes.append(t("html.note.existingOnly"))
        }
        out += "<p class=\"note\">\(notes.joined(separator: " · "))</p>\n"
        out += frequentValues(rule)
        let marked = report.baseline != nil
        out += "<table class=\"samples\"><thead><tr>" + headers("md.columns.samples")
            + (marked ? headers("md.columns.samplesBaseline") : "") + "</tr></thead><tbody>\n"
        for (j, f) in rule.samples.prefix(HTMLReporter.eagerRows).enumerated() {
            out += "<tr data-rule=\"\(i)\" data-sample=\"\(j)\" data-failing=\"\(fails(rule) ? 1 : 0)\">"
                + "<td class=\"loc mono\">\(HTMLText.escaped(f.location.description))</td>"
                + "<td class=\"key mono\">\(HTMLText.escaped(f.key ?? ""))</td>"
                + "<td class=\"value\">\(f.value.map(HTMLText.escaped) ?? "<span class=\"note\">\(t("md.missing"))</span>")</td>"
                + "<td class=\"msg\">\(HTMLText.escaped(f.message))</td>"
                + (marked ? "<td>\(newBadge(f))</td>" : "") + "</tr>\n"
        }
        out += "</tbody></table>\n" + lazyNote(rule.samples.count, "html.noun.sample")
        let hidden = rule.unlisted
        if rule.suppressed > 0 {
            out += "<p class=\"more\">\(t("html.more.suppressed", ["count": n(rule.suppressed)]))</p>\n"
        }
        if hidden > 0 {
            out += "<p class=\"more\">\(t("html.more.hidden", ["hidden": n(hidden), "shown": n(rule.samples.count), "violations": n(rule.violations)]))</p>\n"
        }
        return out + "</details>\n"
    }

    /// Every violating record kept in the report, entity by entity, with all its findings.
    func recordSection() -> String {
        var out = "<section id=\"records\">\n<h2>\(t("html.records.title"))</h2>\n"
        guard !report.records.isEmpty else { return out + "<p>\(t("html.records.none"))</p>\n</section>\n" }
        out += "<p class=\"note\">\(t("html.records.intro", ["max": n(report.maxSamples)]))</p>\n"
        var order = report.entities.map(\.name)
        for record in report.records where !order.contains(record.entity) { order.append(record.entity) }
        for name in order {
            let indexed = report.records.enumerated().filter { $0.element.entity == name }
            guard !indexed.isEmpty else { continue }
            let total = report.entities.first { $0.name == name }?.violatingRecords ?? indexed.count
            out += "<details class=\"entity\" open><summary><h3>\(HTMLText.escaped(name))</h3><span class=\"meta\">"
                + "\(t("html.records.shown", ["shown": n(indexed.count), "total": n(total)]))</span></summary>\n"
            out += "<table class=\"records\"><thead><tr>\(headers("html.columns.records"))</tr></thead><tbody>\n"
            for (k, record) in indexed.prefix(HTMLReporter.eagerRows) {
                let failing = record.findings.contains { f in ruleIndex[f.ruleID].map { fails(report.rules[$0]) } ?? false }
                out += "<tr data-record=\"\(k)\" data-failing=\"\(failing ? 1 : 0)\">"
                    + "<td class=\"loc mono\">\(HTMLText.escaped(record.location.description))</td>"
                    + "<td class=\"key mono\">\(HTMLText.escaped(record.key ?? ""))</td>"
                    + "<td><span class=\"meta\">\(t("html.code", ["code": "\(record.code)"]))</span><ul class=\"findings\">"
                for f in record.findings {
                    // The value only when the message does not already quote it (as in the text report).
                    let value = f.value.flatMap { v in f.message.contains("'\(v)'") ? nil : v }
                        .map { " <span class=\"mono\">\(t("finding.value", markup: ["value": HTMLText.escaped($0)]))</span>" } ?? ""
                    out += "<li><span class=\"sev-\(f.severity.rawValue)\">\(f.severity.rawValue)</span> "
                        + "<code>\(HTMLText.escaped(f.ruleID))</code>: \(HTMLText.escaped(f.message))\(value)"
                        + (f.isNew == true ? " " + newBadge(f) : "") + "</li>"
                }
                out += "</ul></td></tr>\n"
            }
            out += "</tbody></table>\n" + lazyNote(indexed.count, "html.noun.record")
            if total > indexed.count {
                out += "<p class=\"more\">\(t("html.records.more", ["count": n(total - indexed.count)]))</p>\n"
            }
            out += "</details>\n"
        }
        return out + "</section>\n"
    }
}
