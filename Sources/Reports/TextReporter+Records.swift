import Auditor

extension TextReporter.Renderer {
    /// The per-record groups (one record, all its findings), entity by entity in report order.
    ///
    /// Compact: one line per record naming its violated rules. Verbose: the record line, then
    /// one `severity: rule: message` line per finding. Each entity ends with how many of its
    /// records with findings are not shown.
    func recordSection() -> [String] {
        guard !report.records.isEmpty else { return [] }
        var lines = [w("records.title", ["max": n(report.maxSamples)])]
        let entityNames = report.entities.map(\.name)
        let known = Set(entityNames)
        var order = entityNames
        for record in report.records where !known.contains(record.entity) && !order.contains(record.entity) {
            order.append(record.entity)
        }
        for name in order {
            let records = report.records.filter { $0.entity == name }
            for record in records { lines += recordLines(record) }
            if let entity = report.entities.first(where: { $0.name == name }),
               entity.violatingRecords > records.count {
                lines.append("  " + w("records.more", ["count": n(entity.violatingRecords - records.count),
                                                       "entity": style.apply(.bold, TerminalText.escaped(name))]))
            }
        }
        return lines
    }

    /// `  people.csv:77 [id=76]: Person, 2 findings, code 1560: person.email.pattern (error), person.age.type (warning)`;
    /// `(error, new)` for a finding the baseline lacks. The group's code is 1560 for several
    /// findings, else its one finding's code.
    private func recordLines(_ record: RecordFindings) -> [String] {
        let key = record.key.map { " [\(TerminalText.escaped($0))]" } ?? ""
        let head = "  \(TerminalText.escaped(record.location.description))\(key): "
            + w("records.head", ["entity": style.apply(.bold, TerminalText.escaped(record.entity)),
                                 "count": n(record.findings.count), "code": String(record.code)])
        if verbose {
            return [head] + record.findings.map { finding in
                "    \(style.severity(finding.severity, finding.severity.rawValue)): "
                    + "\(style.ruleID(TerminalText.escaped(finding.ruleID))): "
                    + TerminalText.escaped(finding.message) + valueSuffix(finding)
                    + (finding.isNew == true ? " [\(style.apply(.bold, w("finding.new")))]" : "")
            }
        }
        let rules = record.findings.map { finding in
            "\(style.ruleID(TerminalText.escaped(finding.ruleID))) "
                + "(\(style.severity(finding.severity, finding.severity.rawValue))"
                + (finding.isNew == true ? ", \(style.apply(.bold, w("finding.new"))))" : ")")
        }
        return [head + (rules.isEmpty ? "" : ": " + rules.joined(separator: ", "))]
    }

    /// ` [value 'x@']` when the message does not already quote the value, else empty.
    private func valueSuffix(_ finding: Finding) -> String {
        guard let value = finding.value, !finding.message.contains("'\(value)'") else { return "" }
        return " [" + w("finding.value", ["value": TerminalText.escaped(value)]) + "]"
    }

    /// `Inputs:` then one aligned row per input; an incomplete input says so in capitals with
    /// the reader's error.
    func inputSection() -> [String] {
        guard !report.inputs.isEmpty else { return [w("inputs.none")] }
        let rows: [[String]] = report.inputs.map { input in
            var row = [TerminalText.escaped(input.path)]
            if verbose { row.append(w("inputs.source", ["source": TerminalText.escaped(input.source)])) }
            row.append(TerminalText.escaped(input.format))
            row.append(input.bytes.map(size) ?? w("inputs.sizeUnknown"))
            row.append(w("inputs.records", ["count": n(input.records)]))
            if verbose { row.append(w.number(NumberText.seconds(input.seconds))) }
            return row
        }
        let widths = rows.reduce(into: [Int](repeating: 0, count: rows.first?.count ?? 0)) { widths, row in
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var lines = [w("inputs.title")]
        for (input, row) in zip(report.inputs, rows) {
            let cells = row.enumerated().map { padded($0.element, widths[$0.offset]) }
            let status: String
            if input.complete {
                status = input.isPrevious ? w("inputs.completePrevious") : w("inputs.complete")
            } else {
                status = style.outcome(.incomplete, w("verdict.incomplete")) + w("punctuation.colon")
                    + (input.error.map(TerminalText.escaped) ?? w("inputs.noReason"))
            }
            lines.append("  " + cells.joined(separator: "  ") + "  " + status)
            if let engine = input.ranIn { lines.append("    " + w("inputs.ranIn", ["engine": engine])) }
            if let reason = input.pushdownRefused { lines.append("    " + w("inputs.pushdownRefused", ["reason": TerminalText.escaped(reason)])) }
            for rule in report.rules where !input.isPrevious && rule.source == input.source {
                guard let engine = input.ranIn, let reason = rule.pushdownRefused else { continue }
                lines.append("    " + w("inputs.ruleInProcess", ["rule": TerminalText.escaped(rule.id), "engine": engine,
                                                            "reason": TerminalText.escaped(reason)]))
            }
            if let bytes = input.keysSpilled { lines.append("    " + w("inputs.keysSpilled", ["size": "\(bytes >> 20) MiB"])) }
            if let bytes = input.referencedKeysSpilled {
                lines.append("    " + w("inputs.referencedKeysSpilled", ["size": "\(bytes >> 20) MiB"]))
            }
        }
        return lines
    }

    /// `334 bytes`, `60.8 KiB` in the report's wording.
    func size(_ bytes: Int64) -> String {
        bytes < 1024 ? w("number.bytes", ["count": w.number(NumberText.grouped(bytes))]) : w.number(NumberText.bytes(bytes))
    }
}
