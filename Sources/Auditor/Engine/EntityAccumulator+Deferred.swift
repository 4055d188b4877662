/// Findings known only after a whole pass: table rules and the cardinality of relationships.
extension EntityAccumulator {
    /// Adds a finding that is not tied to a record of a chunk.
    /// - Parameters:
    ///   - ordinal: The record's ordinal when the finding is about one record (cardinality),
    ///     nil for a table rule.
    /// - Parameter counted: Count every call as a violation even without an ordinal (a finding
    ///   about a record outside this input, such as a deleted one).
    /// - Parameter identity: The record's real key when `key` is masked (fingerprints only).
    func addDeferred(check ci: Int, location: RecordLocation, key: String?, value: String?,
                     parameters: [String: String], ordinal: Int?, counted: Bool = false, identity: String? = nil) {
        let check = entity.plan.checks[ci]
        let rule = entity.plan.rules[check.slot]
        let message = check.message.render { p in
            parameters[p] ?? (p == "entity" ? check.parameters["entity"] ?? entity.plan.name : p == "key" ? key : p == "value" ? value : nil)
                ?? check.parameters[p]
        }
        var finding = Finding(ruleID: rule.id, code: check.code ?? rule.code, severity: rule.severity, entity: entity.plan.name,
                              attribute: check.attribute.map { entity.plan.attributes[$0].name }, location: location,
                              key: key, value: value, message: message)
        stamp(&finding, slot: check.slot, key: identity)
        if counted || ordinal != nil {
            frequent[check.slot].add(value)
        } else if counts[check.slot] == 0 {
            frequent[check.slot].add(value)     // a table rule: one violation whatever the calls
        }
        if counted {
            counts[check.slot] += 1
            if records.count < maxSamples {
                records.append(RecordFindings(entity: entity.plan.name, location: location, key: key, findings: [finding]))
            }
        } else if ordinal == nil {
            counts[check.slot] = 1          // a table violates a table rule once
        } else {
            counts[check.slot] += 1
        }
        if samples[check.slot].count < maxSamples { samples[check.slot].append(finding) }
        if counted, let sink, sinkError == nil {
            do {
                try sink.receive(RecordFindings(entity: entity.plan.name, location: location, key: key, findings: [finding]))
            } catch {
                sinkError = error
            }
        }
        guard let ordinal else { return }
        if let g = records.firstIndex(where: { $0.location.record == ordinal }) {
            records[g].findings.append(finding)
        } else if records.count < maxSamples {
            records.append(RecordFindings(entity: entity.plan.name, location: location, key: key, findings: [finding]))
            records.sort { $0.location.record < $1.location.record }
        }
        if !violatingOrdinals.contains(ordinal) {
            violatingOrdinals.insert(ordinal)
            violatingRecords += 1
        }
        if let sink, sinkError == nil {
            do {
                try sink.receive(RecordFindings(entity: entity.plan.name, location: location, key: key, findings: [finding]))
            } catch {
                sinkError = error
            }
        }
    }

    /// Evaluates the table rules after the pass.
    /// - Parameters:
    ///   - asOf: The reference instant for freshness, seconds since 1970.
    ///   - inputFields: The input's fields as the reader knows them after the pass (default:
    ///     those it knew when the entity was bound).
    func finishTableRules(asOf: Int64, inputFields: [String]? = nil) {
        let here = RecordLocation(path: entity.displayPath, record: 0)
        for (t, rule) in entity.plan.tableRules.enumerated() {
            let slot = entity.plan.checks[rule.check].slot
            evaluatedOverride[slot] = 1
            switch rule.kind {
            case .rowCount(let lo, let hi):
                if let lo, recordsRead < lo {
                    addDeferred(check: rule.check, location: here, key: nil, value: String(recordsRead),
                                parameters: ["count": String(recordsRead)], ordinal: nil)
                } else if let hi, recordsRead > hi {
                    addDeferred(check: rule.check, location: here, key: nil, value: String(recordsRead),
                                parameters: ["count": String(recordsRead)], ordinal: nil)
                }
            case .columns(let required, let allowExtra):
                let fields = inputFields ?? entity.inputFields
                for c in required where !fields.contains(c) {
                    addDeferred(check: rule.check, location: here, key: nil, value: c,
                                parameters: ["reason": "missing", "column": c, "problem": "The input has no column '\(c)'; it is required."],
                                ordinal: nil)
                }
                for a in entity.plan.attributes where !fields.contains(a.name) && !required.contains(a.name) {
                    addDeferred(check: rule.check, location: here, key: nil, value: a.name,
                                parameters: ["reason": "attribute", "column": a.name, "problem": "The input has no column '\(a.name)'; the attribute is read as missing."],
                                ordinal: nil)
                }
                if !allowExtra {
                    let declared = Set(entity.plan.attributes.map(\.name) + required)
                    for f in fields where !declared.contains(f) {
                        addDeferred(check: rule.check, location: here, key: nil, value: f,
                                    parameters: ["reason": "unexpected", "column": f, "problem": "The input has an unexpected column '\(f)'."],
                                    ordinal: nil)
                    }
                }
            case .freshness(let a, let maxAge):
                let type = entity.plan.attributes[a].type
                guard let newest = maxima[t] else {
                    addDeferred(check: rule.check, location: here, key: nil, value: nil,
                                parameters: ["newest": "missing", "asOf": Self.isoDateTime(asOf)], ordinal: nil)
                    continue
                }
                let seconds = type == .date ? Int64(newest) * 86400 : Int64(newest)
                if asOf - seconds > maxAge {
                    let text = type == .date ? CalendarMath.isoDate(days: Int(newest)) : Self.isoDateTime(seconds)
                    addDeferred(check: rule.check, location: here, key: nil, value: text,
                                parameters: ["newest": text, "asOf": Self.isoDateTime(asOf)], ordinal: nil)
                }
            }
        }
    }

    /// Evaluates the cardinality rules of this (parent) entity from a child's counts.
    func finishCardinality(_ rule: CardinalityRule, childCounts: [Int32]) {
        let records = providedRecords[rule.providedKey]
        for check in [rule.minCheck, rule.maxCheck].compactMap({ $0 }) {
            evaluatedOverride[entity.plan.checks[check].slot] = records.count
        }
        for (k, record) in records.enumerated() {
            let n = k < childCounts.count ? Int(childCounts[k]) : 0
            var check: Int?
            if let lo = rule.min, n < lo { check = rule.minCheck }
            if let hi = rule.max, n > hi { check = rule.maxCheck }
            guard let check else { continue }
            let loc = FindingBuilder.location(entity, ordinal: record.ordinal, value: providedTables[rule.providedKey].locations[k])
            addDeferred(check: check, location: loc, key: record.key, value: String(n),
                        parameters: ["count": String(n)], ordinal: record.ordinal, identity: record.identity)
        }
    }

    /// Deny delete rules: each deleted parent that records of the new snapshot still reference.
    func finishDeny(_ rule: DeleteRuleCheck, index: SnapshotIndex, references: [Int32: Int]) {
        evaluatedOverride[entity.plan.checks[rule.check].slot] = index.deletedCount
        for (p, n) in references.sorted(by: { $0.key < $1.key }) {
            let deleted = index.deleted[Int(p)]
            let location = deleted?.location ?? RecordLocation(path: entity.displayPath, record: 0)
            addDeferred(check: rule.check, location: location, key: deleted?.key, value: String(n),
                        parameters: ["count": String(n)], ordinal: nil, counted: true, identity: deleted?.identity)
        }
    }

    static func isoDateTime(_ seconds: Int64) -> String {
        let days = Int((Double(seconds) / 86400).rounded(.down))
        let rest = Int(seconds - Int64(days) * 86400)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
        return "\(CalendarMath.isoDate(days: days))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }
}
