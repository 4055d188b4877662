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
                groups.append(Group(title: "source \(rule.source)", source: rule.source, entity: nil, rules: [i]))
            }
        }
        return groups
    }

    /// The anchor of a rule's sample section: generated, never derived from data.
    func anchor(_ group: Int, _ rule: Int) -> String { "g\(group)-r\(rule)" }

    func ruleSections() -> String {
        var out = "<section id=\"rules\">\n<h2>Rules by entity</h2>\n"
        out += "<p class=\"legend\"><span class=\"badge st-failed\">failed</span> beyond its threshold at a failing severity · "
            + "<span class=\"badge st-violated\">violated</span> beyond its threshold, below --fail-on "
            + "\(report.failOn.rawValue) · "
            + (report.gatesOnNew ? "<span class=\"badge st-existing\">existing only</span> at a failing severity, every "
                + "finding in the baseline (--fail-on-new) · " : "")
            + "<span class=\"badge st-tolerated\">tolerated</span> within its threshold · "
            + "<span class=\"badge st-passed\">passed</span> no violation · "
            + "<span class=\"badge st-not-evaluated\">not evaluated</span> no record checked: neither passed nor failed</p>\n"
        let paths = Dictionary(report.inputs.filter { !$0.isPrevious }.map { ($0.source, $0.path) },
                               uniquingKeysWith: { first, _ in first })
        for (g, group) in groups().enumerated() {
            var meta = [String]()
            if let path = paths[group.source] { meta.append("<span class=\"mono\">\(HTMLText.escaped(path))</span>") }
            if let e = group.entity {
                meta.append(Plural.count(e.records, "record"))
                meta.append("\(NumberText.grouped(e.violatingRecords)) with findings")
                meta.append(Plural.count(e.violations, "violation"))
            }
            out += "<details class=\"entity\" open><summary><h3>\(HTMLText.escaped(group.title))</h3>"
                + "<span class=\"meta\">\(meta.joined(separator: " · "))</span></summary>\n"
            if let lifecycle = group.entity?.lifecycle {
                out += "<p class=\"changes\">\(HTMLText.escaped(LifecycleText.summary(lifecycle)))</p>\n"
                if !lifecycle.samples.isEmpty {
                    out += "<details><summary>First changed records</summary><ul class=\"mono\">"
                        + lifecycle.samples.map { "<li>\(HTMLText.escaped(LifecycleText.change($0)))</li>" }.joined()
                        + "</ul></details>\n"
                }
            }
            if let e = group.entity, let empty = NotEvaluatedText.emptyEntities(report).first(where: { $0.entity.name == e.name }) {
                out += "<p class=\"note\">Warning: \(HTMLText.escaped(NotEvaluatedText.warning(empty))).</p>\n"
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
        if report.rules.isEmpty { out += "<p>No rules.</p>\n" }
        return out + "</section>\n"
    }

    func rulesTable(_ g: Int, _ group: Group) -> String {
        var out = "<div class=\"scroll\"><table class=\"rules\"><thead><tr><th>Status</th><th>Rule</th><th>Severity</th><th class=\"n\">Code</th>"
            + "<th class=\"n\">Violations</th>"
            + (report.baseline == nil ? "" : "<th class=\"n\">New</th><th class=\"n\">Existing</th><th class=\"n\">Resolved</th>")
            + (hasTrends ? "<th>Trend</th>" : "")
            + "<th class=\"n\">Evaluated</th><th class=\"n\">Rate</th><th>Threshold</th>"
            + "<th>Requirement</th><th>Defined at</th></tr></thead><tbody>\n"
        for i in group.rules {
            let rule = report.rules[i]
            let id = HTMLText.escaped(rule.id)
            let name = rule.violations > 0 ? "<a href=\"#\(anchor(g, i))\"><code>\(id)</code></a>" : "<code>\(id)</code>"
            var requirement = HTMLText.escaped(rule.summary)
            if let d = rule.description { requirement += "<br><span class=\"note\">\(HTMLText.escaped(d))</span>" }
            if rule.skipped > 0 { requirement += " <span class=\"note\">(\(Plural.count(rule.skipped, "record")) not evaluated)</span>" }
            if rule.suppressed > 0 { requirement += " <span class=\"note\">(\(NumberText.grouped(rule.suppressed)) suppressed: one root cause)</span>" }
            if rule.status == .notEvaluated {
                requirement += " <span class=\"note\">(not evaluated: \(HTMLText.escaped(NotEvaluatedText.reason(rule, report))))</span>"
            }
            out += "<tr class=\"row-\(status(rule))\" data-rule=\"\(i)\" data-failing=\"\(fails(rule) ? 1 : 0)\">"
                + "<td>\(badge(rule))</td><td>\(name)</td>"
                + "<td class=\"sev-\(rule.severity.rawValue)\">\(rule.severity.rawValue)</td><td class=\"n\">\(rule.code)</td>"
                + "<td class=\"n\">\(NumberText.grouped(rule.violations))</td>" + baselineCells(rule) + trendCell(rule)
                + "<td class=\"n\">\(NumberText.grouped(rule.evaluated))</td>"
                + "<td class=\"n\">\(NumberText.percent(rule.violations, of: rule.evaluated))</td>"
                + "<td>\(rule.threshold.isEmpty ? "none" : HTMLText.escaped(rule.threshold.description))</td>"
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
            + "<span class=\"meta\">\(Plural.count(rule.violations, "violation")) of \(Plural.count(rule.evaluated, "record"))"
            + " (\(NumberText.percent(rule.violations, of: rule.evaluated))) · \(rule.severity.rawValue) · code \(rule.code)"
            + (rule.baseline.map { " · " + BaselineText.counts($0) } ?? "") + "</span>"
            + (rule.trend?.jumped == true ? " " + jumpedBadge(rule) : "")
            + "</summary>\n"
        var notes = [HTMLText.escaped(rule.summary)]
        if let d = rule.description { notes.append(HTMLText.escaped(d)) }
        if let h = rule.hint { notes.append("hint: " + HTMLText.escaped(h)) }
        if rule.status == .tolerated {
            notes.append("tolerated: within its threshold (\(HTMLText.escaped(rule.threshold.description)))")
        } else if !rule.threshold.isEmpty {
            notes.append("threshold exceeded (\(HTMLText.escaped(rule.threshold.description)))")
        }
        if let at = rule.definedAt { notes.append("defined at <span class=\"mono\">\(HTMLText.escaped(at))</span>") }
        if existingOnlyIDs.contains(rule.id) {
            notes.append("only findings of the baseline: it does not fail the run with --fail-on-new")
        }
        out += "<p class=\"note\">\(notes.joined(separator: " · "))</p>\n"
        out += frequentValues(rule)
        let marked = report.baseline != nil
        out += "<table class=\"samples\"><thead><tr><th>Location</th><th>Key</th><th>Value</th><th>Message</th>"
            + (marked ? "<th>Baseline</th>" : "") + "</tr></thead><tbody>\n"
        for (j, f) in rule.samples.prefix(HTMLReporter.eagerRows).enumerated() {
            out += "<tr data-rule=\"\(i)\" data-sample=\"\(j)\" data-failing=\"\(fails(rule) ? 1 : 0)\">"
                + "<td class=\"loc mono\">\(HTMLText.escaped(f.location.description))</td>"
                + "<td class=\"key mono\">\(HTMLText.escaped(f.key ?? ""))</td>"
                + "<td class=\"value\">\(f.value.map(HTMLText.escaped) ?? "<span class=\"note\">missing</span>")</td>"
                + "<td class=\"msg\">\(HTMLText.escaped(f.message))</td>"
                + (marked ? "<td>\(newBadge(f))</td>" : "") + "</tr>\n"
        }
        out += "</tbody></table>\n" + lazyNote(rule.samples.count, "sample")
        let hidden = rule.violations - rule.samples.count - rule.suppressed
        if rule.suppressed > 0 {
            out += "<p class=\"more\">\(NumberText.grouped(rule.suppressed)) more findings of this rule suppressed: "
                + "the finding above is their root cause</p>\n"
        }
        if hidden > 0 {
            out += "<p class=\"more\">\(NumberText.grouped(hidden)) more not shown (\(NumberText.grouped(rule.samples.count)) of "
                + "\(NumberText.grouped(rule.violations)) shown; raise --max-samples, or write every failing record with --failures-out)</p>\n"
        }
        return out + "</details>\n"
    }

    /// Every violating record kept in the report, entity by entity, with all its findings.
    func recordSection() -> String {
        var out = "<section id=\"records\">\n<h2>Records with findings</h2>\n"
        guard !report.records.isEmpty else { return out + "<p>No record has a finding.</p>\n</section>\n" }
        out += "<p class=\"note\">The first \(NumberText.grouped(report.maxSamples)) violating records of each entity, "
            + "in input order, each with all its findings.</p>\n"
        var order = report.entities.map(\.name)
        for record in report.records where !order.contains(record.entity) { order.append(record.entity) }
        for name in order {
            let indexed = report.records.enumerated().filter { $0.element.entity == name }
            guard !indexed.isEmpty else { continue }
            let total = report.entities.first { $0.name == name }?.violatingRecords ?? indexed.count
            out += "<details class=\"entity\" open><summary><h3>\(HTMLText.escaped(name))</h3><span class=\"meta\">"
                + "\(NumberText.grouped(indexed.count)) of \(Plural.count(total, "record")) with findings shown</span></summary>\n"
            out += "<table class=\"records\"><thead><tr><th>Location</th><th>Key</th><th>Findings</th></tr></thead><tbody>\n"
            for (k, record) in indexed.prefix(HTMLReporter.eagerRows) {
                let failing = record.findings.contains { f in ruleIndex[f.ruleID].map { fails(report.rules[$0]) } ?? false }
                out += "<tr data-record=\"\(k)\" data-failing=\"\(failing ? 1 : 0)\">"
                    + "<td class=\"loc mono\">\(HTMLText.escaped(record.location.description))</td>"
                    + "<td class=\"key mono\">\(HTMLText.escaped(record.key ?? ""))</td>"
                    + "<td><span class=\"meta\">code \(record.code)</span><ul class=\"findings\">"
                for f in record.findings {
                    // The value only when the message does not already quote it (as in the text report).
                    let value = f.value.flatMap { v in f.message.contains("'\(v)'") ? nil : v }
                        .map { " <span class=\"mono\">value '\(HTMLText.escaped($0))'</span>" } ?? ""
                    out += "<li><span class=\"sev-\(f.severity.rawValue)\">\(f.severity.rawValue)</span> "
                        + "<code>\(HTMLText.escaped(f.ruleID))</code>: \(HTMLText.escaped(f.message))\(value)"
                        + (f.isNew == true ? " " + newBadge(f) : "") + "</li>"
                }
                out += "</ul></td></tr>\n"
            }
            out += "</tbody></table>\n" + lazyNote(indexed.count, "record")
            if total > indexed.count {
                out += "<p class=\"more\">\(NumberText.grouped(total - indexed.count)) more records with findings not shown.</p>\n"
            }
            out += "</details>\n"
        }
        return out + "</section>\n"
    }
}
