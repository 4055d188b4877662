import Auditor

extension TextReporter.Renderer {
    /// The rules of one entity, or the rules of a source that no entity lists.
    struct RuleGroup {
        /// Escaped, uncoloured title: `Person`, `source people`.
        var title: String
        var source: String
        var entity: EntityOutcome?
        var rules: [RuleOutcome]
    }

    /// One group per entity (its `ruleIDs` in order), then one per source for rules that no
    /// entity lists, so no rule is ever left out of the report.
    func ruleGroups() -> [RuleGroup] {
        var groups: [RuleGroup] = report.entities.map { entity in
            RuleGroup(title: TerminalText.escaped(entity.name), source: entity.source, entity: entity,
                      rules: entity.ruleIDs.compactMap { rulesByID[$0] })
        }
        let listed = Set(report.entities.flatMap(\.ruleIDs))
        var orphanIndex: [String: Int] = [:]
        for rule in report.rules where !listed.contains(rule.id) {
            if let index = orphanIndex[rule.source] {
                groups[index].rules.append(rule)
            } else {
                orphanIndex[rule.source] = groups.count
                groups.append(RuleGroup(title: w("entity.source", ["source": TerminalText.escaped(rule.source)]),
                                        source: rule.source, entity: nil, rules: [rule]))
            }
        }
        return groups
    }

    /// The group's lines: a title line, then the violated rules with their samples, then the
    /// passing rules.
    func block(for group: RuleGroup) -> [String] {
        // Rules beyond their threshold first (most severe first), then tolerated ones.
        let violated = group.rules.enumerated()
            .filter { $0.element.violations > 0 }
            .sorted { a, b in
                let ta = a.element.status == .tolerated, tb = b.element.status == .tolerated
                if ta != tb { return tb }
                return a.element.severity != b.element.severity ? a.element.severity > b.element.severity
                                                                 : a.offset < b.offset
            }
            .map(\.element)
        let passing = group.rules.filter { $0.status == .passed }
        let unevaluated = group.rules.filter { $0.status == .notEvaluated }
        var lines = [groupTitle(group, clean: violated.isEmpty)]
        if let entity = group.entity, let empty = NotEvaluatedText.emptyEntities(report).first(where: { $0.entity.name == entity.name }) {
            lines.append("  \(style.severity(.warning, "warning")): \(TerminalText.escaped(NotEvaluatedText.warning(empty, w)))")
        }
        if let lifecycle = group.entity?.lifecycle {
            lines.append("  " + TerminalText.escaped(LifecycleText.summary(lifecycle, w)))
            if verbose {
                lines += lifecycle.samples.map { "    " + TerminalText.escaped(LifecycleText.change($0)) }
            }
        }
        if violated.isEmpty && !verbose { return lines + unevaluatedSummary(unevaluated, group: group) }

        let rows = violated + (verbose ? passing + unevaluated : [])
        var columns = RuleColumns(rules: rows, renderer: self)
        // The passing summary's word lines up with the rows' (`respecté` is longer than `warning`).
        if !verbose, !passing.isEmpty { columns.word = max(columns.word, w("status.passed").count) }
        for rule in violated {
            lines.append(ruleRow(rule, columns: columns))
            lines += describe(rule)
            lines += baselineAndTrend(of: rule)
            lines += samples(of: rule)
            if let hint = rule.hint { lines.append("    " + w("rule.hint", ["hint": TerminalText.escaped(hint)])) }
        }
        if verbose {
            lines += passing.flatMap { [ruleRow($0, columns: columns)] + describe($0) }
            lines += unevaluated.flatMap { [ruleRow($0, columns: columns)] + describe($0) }
        } else {
            if !passing.isEmpty { lines.append(passingSummary(passing, width: max(7, w("status.passed").count))) }
            lines += unevaluatedSummary(unevaluated, group: group)
        }
        if let resolved = resolvedSummary(passing) { lines.append(resolved) }
        return lines
    }

    /// `Person (people.csv): 2,000 records, 312 with findings, 330 violations`.
    private func groupTitle(_ group: RuleGroup, clean: Bool) -> String {
        let path = pathBySource[group.source].map(TerminalText.escaped) ?? TerminalText.escaped(group.source)
        var parts: [String] = []
        if let entity = group.entity {
            parts.append(w("entity.records", ["count": n(entity.records)]))
            if entity.violatingRecords > 0 || entity.violations > 0 {
                parts.append(w("entity.withFindings", ["count": n(entity.violatingRecords)]))
                parts.append(w("entity.violations", ["count": n(entity.violations)]))
            }
        } else {
            let records = report.inputs.filter { $0.source == group.source && !$0.isPrevious }.reduce(0) { $0 + $1.records }
            parts.append(w("entity.records", ["count": n(records)]))
            let violations = group.rules.reduce(0) { $0 + $1.violations }
            if violations > 0 { parts.append(w("entity.violations", ["count": n(violations)])) }
        }
        if clean {
            parts.append(w("head.noFindings"))
            let unevaluated = group.rules.filter { $0.status == .notEvaluated }.count
            let passed = group.rules.count - unevaluated
            if group.rules.isEmpty {
                parts.append(w("entity.noRules"))
            } else if unevaluated == 0 {
                parts.append(w("entity.passed", ["count": n(passed)]))
            } else if passed == 0 {
                parts.append(w("entity.unevaluated", ["count": n(unevaluated)]))
            } else {
                parts.append(w("entity.passedUnevaluated", ["passed": n(passed), "unevaluated": n(unevaluated)]))
            }
        }
        return "\(style.apply(.bold, group.title)) (\(path)): " + parts.joined(separator: ", ")
    }

    /// Column widths of the rule rows of one group, computed on plain text.
    struct RuleColumns {
        var id = 0
        var code = 0
        var count = 0
        /// The status word: 7 (`warning`), or the longest status word of the rows (`tolerated`,
        /// `not evaluated`, `passed` in the report's wording).
        var word = 7

        init(rules: [RuleOutcome], renderer: TextReporter.Renderer) {
            for rule in rules {
                word = max(word, renderer.statusWord(rule).count)
                id = max(id, TerminalText.escaped(rule.id).count)
                code = max(code, String(rule.code).count)
                count = max(count, renderer.countText(rule).count)
            }
        }
    }

    /// `14 of 2,000 records (0.70%)`; no rate for a passing rule.
    func countText(_ rule: RuleOutcome) -> String {
        let base = w("rule.count", ["violations": n(rule.violations), "evaluated": n(rule.evaluated)])
        return rule.violations == 0 ? base : base + " (\(percent(rule.violations, of: rule.evaluated)))"
    }

    /// The row's first word: the severity of a violated rule, else `tolerated`, `not evaluated`
    /// or `passed` in the report's wording.
    func statusWord(_ rule: RuleOutcome) -> String {
        rule.status == .tolerated ? w("status.tolerated") : rule.violations > 0 ? rule.severity.rawValue
            : rule.status == .notEvaluated ? w("status.notEvaluated") : w("status.passed")
    }

    /// `  error    person.name.length  1670  14 of 2,000 records (0.70%)  name has 3 to 32 characters`.
    ///
    /// A rule within its threshold says `tolerated` instead of its severity, and ends with
    /// `[warning, within threshold: at most 5 failures]`; a violated rule that has a threshold
    /// ends with `[threshold exceeded: …]`, so the reader sees why it counts.
    private func ruleRow(_ rule: RuleOutcome, columns: RuleColumns) -> String {
        let tolerated = rule.status == .tolerated
        let unevaluated = rule.status == .notEvaluated
        let word = statusWord(rule)
        let styledWord = tolerated || unevaluated ? style.apply(.dim, word)
            : rule.violations > 0 ? style.severity(rule.severity, word) : style.apply(.green, word)
        let coloredWord = styledWord + padded("", columns.word - word.count)
        let id = TerminalText.escaped(rule.id)
        let code = String(repeating: " ", count: max(0, columns.code - String(rule.code).count)) + String(rule.code)
        var notes: [String] = []
        if tolerated {
            notes.append(w("rule.withinThreshold", ["severity": rule.severity.rawValue, "threshold": rule.threshold.description]))
        } else if rule.violations > 0, !rule.threshold.isEmpty {
            notes.append(w("rule.thresholdExceeded", ["threshold": rule.threshold.description]))
        }
        if rule.skipped > 0 { notes.append(w("rule.skipped", ["count": n(rule.skipped)])) }
        if rule.suppressed > 0 { notes.append(w("rule.suppressed", ["count": n(rule.suppressed)])) }
        for (hook, count) in rule.hookSuppressions {
            notes.append(w("rule.suppressedByHook", ["count": n(count), "hook": TerminalText.escaped(hook)]))
        }
        if unevaluated { notes.append(TerminalText.escaped(NotEvaluatedText.reason(rule, report, w))) }
        if verbose, let at = rule.definedAt { notes.append(w("rule.definedAt", ["location": TerminalText.escaped(at)])) }
        let suffix = notes.isEmpty ? "" : " [" + notes.joined(separator: ", ") + "]"
        return "  \(coloredWord)  \(style.ruleID(id))\(padded("", columns.id - id.count))  \(code)  "
            + "\(padded(countText(rule), columns.count))  \(TerminalText.escaped(rule.summary))\(suffix)"
    }

    /// `      Salaries are gross, in euros.`: the rule's `description:`, with `-v` only.
    private func describe(_ rule: RuleOutcome) -> [String] {
        guard verbose, let d = rule.description else { return [] }
        return ["      " + TerminalText.escaped(d)]
    }

    /// The rule's sampled findings, then how many were left out.
    private func samples(of rule: RuleOutcome) -> [String] {
        var lines = rule.samples.map { "    " + findingLine($0) }
        let hidden = rule.unlisted
        if rule.suppressed > 0 {
            lines.append("    " + w("samples.suppressed", ["count": n(rule.suppressed)]))
        }
        if hidden > 0 {
            lines.append("    " + w("samples.hidden", ["hidden": n(hidden), "shown": n(rule.samples.count), "violations": n(rule.violations)]))
        }
        return lines
    }

    /// `people.csv:1043: error: person.name.length: Name must be 3 to 32 letters; got 'Al'. [id=1042]`.
    ///
    /// The value is added to the bracket only when the message does not already quote it;
    /// `new` when a baseline was compared with and lacks the finding.
    func findingLine(_ finding: Finding) -> String {
        var extras: [String] = []
        if let key = finding.key { extras.append(TerminalText.escaped(key)) }
        if let value = finding.value, !finding.message.contains("'\(value)'") {
            extras.append(w("finding.value", ["value": TerminalText.escaped(value)]))
        }
        if finding.isNew == true { extras.append(style.apply(.bold, w("finding.new"))) }
        let suffix = extras.isEmpty ? "" : " [" + extras.joined(separator: ", ") + "]"
        return "\(TerminalText.escaped(finding.location.description)): "
            + "\(style.severity(finding.severity, finding.severity.rawValue)): "
            + "\(style.ruleID(TerminalText.escaped(finding.ruleID))): \(TerminalText.escaped(finding.message))\(suffix)"
    }

    /// `  not evaluated  2 rules: person.dept_id.fk, person.licence_age (why)`, one line per
    /// distinct reason; nothing when every rule evaluated a record. An entity whose input has
    /// no records already has its warning line.
    private func unevaluatedSummary(_ rules: [RuleOutcome], group: RuleGroup) -> [String] {
        var reasons: [String] = []
        var byReason: [String: [RuleOutcome]] = [:]
        for rule in rules {
            let reason = NotEvaluatedText.reason(rule, report, w)
            if byReason[reason] == nil { reasons.append(reason) }
            byReason[reason, default: []].append(rule)
        }
        return reasons.map { reason in
            let ids = (byReason[reason] ?? []).map { style.ruleID(TerminalText.escaped($0.id)) }
            let shown = ids.count <= 4 ? ids : Array(ids.prefix(3))
            let list = shown.count < ids.count
                ? w("list.more", ["items": shown.joined(separator: ", "), "more": n(ids.count - shown.count)])
                : shown.joined(separator: ", ")
            return "  \(style.apply(.dim, w("status.notEvaluated")))  " + w("rules.list", ["count": n(ids.count), "list": list])
                + " (\(TerminalText.escaped(reason)))"
        }
    }

    /// `  passed   20 rules: person.id.required, person.id.unique, person.age.range and 17 more (--verbose lists them)`.
    private func passingSummary(_ passing: [RuleOutcome], width: Int) -> String {
        let ids = passing.map { style.ruleID(TerminalText.escaped($0.id)) }
        let shown = ids.count <= 4 ? ids : Array(ids.prefix(3))
        let word = w("status.passed")
        let list = shown.count < ids.count
            ? w("rules.verbose", ["list": w("list.more", ["items": shown.joined(separator: ", "), "more": n(ids.count - shown.count)])])
            : shown.joined(separator: ", ")
        return "  \(style.apply(.green, word) + padded("", width - word.count))  " + w("rules.list", ["count": n(passing.count), "list": list])
    }
}
