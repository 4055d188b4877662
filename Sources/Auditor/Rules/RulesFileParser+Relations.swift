/// Parsing of an entity's cross-record rules: composite unique keys, relationships and
/// table rules.
extension RulesFileParser {
    static let ruleOptionKeys = ["id", "message", "severity", "code", "description", "hint"] + thresholdKeys
    static let relationshipKeys = ["attribute", "attributes", "references", "from", "minCount", "maxCount", "deleteRule"] + ruleOptionKeys
    static let recordRuleKeys = ["when", "assert", "on"] + ruleOptionKeys
    static let uniqueKeyKeys = ["attributes"] + ruleOptionKeys
    /// A relationship's `minCount`, `maxCount` or `deleteRule` written as a mapping.
    static let valueOptionKeys = ["value"] + ruleOptionKeys
    static let rowCountKeys = ["min", "max"] + ruleOptionKeys
    static let columnsKeys = ["required", "allowExtra"] + ruleOptionKeys
    static let freshnessKeys = ["attribute", "maxAge"] + ruleOptionKeys

    func parseRelations(_ map: ConfigMapping, into e: inout EntitySpec, diagnostics d: inout [Diagnostic]) {
        if let u = map["unique"] { e.uniqueKeys = parseUniqueKeys(u, into: &d) }
        if let r = map["relationships"] {
            do {
                for (k, v) in try r.mapping("relationships").pairs {
                    if let rel = parseRelationship(key: k, node: v, into: &d) { e.relationships.append(rel) }
                }
            } catch { d.append(error) }
        }
        if let r = map["rules"] {
            do {
                for item in try r.sequence("rules") {
                    if let rule = parseRecordRule(item, into: &d) { e.recordRules.append(rule) }
                }
            } catch { d.append(error) }
        }
        if let n = map["rowCount"] { e.tableRules.rowCount = parseRowCount(n, into: &d) }
        if let n = map["columns"] { e.tableRules.columns = parseColumns(n, into: &d) }
        if let n = map["freshness"] { e.tableRules.freshness = parseFreshness(n, into: &d) }
    }

    /// Long-form rule options from a mapping (unknown keys are checked by the caller).
    func parseRuleOptions(_ map: ConfigMapping, into d: inout [Diagnostic]) -> RuleOptions {
        var o = RuleOptions()
        if let i = map["id"] {
            do {
                let id = try i.string("id")
                if id.isEmpty || id.contains(where: { $0.isWhitespace }) {
                    d.append(i.error("a rule id must be non-empty and contain no spaces; got '\(id)'"))
                } else {
                    o.id = id
                }
            } catch { d.append(error) }
        }
        if let m = map["message"] {
            do {
                let text = try localized(m, "message")
                o.message = text?.text
                o.messageMark = text?.mark
            } catch { d.append(error) }
        }
        o.severity = parseSeverity(map["severity"], into: &d)
        if let c = map["code"] {
            do { o.code = try c.int("code") } catch { d.append(error) }
        }
        o.threshold = parseThreshold(map, into: &d)
        if let n = map["on"] { o.on = parseScope(n, into: &d) }
        for (key, path) in [("description", \RuleOptions.description), ("hint", \RuleOptions.hint)] {
            guard let n = map[key] else { continue }
            do { o[keyPath: path] = try localized(n, key)?.text } catch { d.append(error) }
        }
        return o
    }

    /// `- { id: person.licence_age, when: has_licence, assert: age >= 16, message: ... }`.
    private func parseRecordRule(_ node: ConfigNode, into d: inout [Diagnostic]) -> RecordRuleSpec? {
        let map: ConfigMapping
        do { map = try node.mapping("a record rule") } catch { d.append(error); return nil }
        d += map.unknownKeys(allowed: Self.recordRuleKeys, context: "a record rule")
        guard let a = map["assert"] else {
            d.append(node.error("a record rule needs 'assert:', a condition every record must meet (for example 'age >= 16')"))
            return nil
        }
        do throws(Diagnostic) {
            let assert = (try a.string("assert"), a)
            var when: (String, ConfigNode)?
            if let w = map["when"] { when = (try w.string("when"), w) }
            var description: String?
            if let text = map["description"] { description = try localized(text, "description")?.text }
            return RecordRuleSpec(mark: node.mark, when: when, assert: assert, description: description,
                                  options: parseRuleOptions(map, into: &d))
        } catch {
            d.append(error)
            return nil
        }
    }

    /// `unique: [a, b]` (one key), `unique: [[a, b], [c]]` (several), or
    /// `unique: [{ attributes: [a, b], id: ..., message: ... }]`.
    private func parseUniqueKeys(_ node: ConfigNode, into d: inout [Diagnostic]) -> [UniqueKeySpec] {
        guard case .sequence(let items) = node.kind, !items.isEmpty else {
            d.append(node.error("entity 'unique' lists the attributes of a composite key: unique: [first_name, last_name]"))
            return []
        }
        let groups: [ConfigNode] = items.allSatisfy({ $0.scalar != nil }) ? [node] : items
        var keys = [UniqueKeySpec]()
        for g in groups {
            var attrs = [String]()
            var options = RuleOptions()
            var listNode = g
            if case .mapping = g.kind, let m = try? g.mapping("a unique key") {
                d += m.unknownKeys(allowed: Self.uniqueKeyKeys, context: "a unique key")
                options = parseRuleOptions(m, into: &d)
                guard let a = m["attributes"] else {
                    d.append(g.error("a unique key needs 'attributes: [a, b]'"))
                    continue
                }
                listNode = a
            }
            for item in listNode.sequenceOrSingle() {
                do { attrs.append(try item.string("a key attribute")) } catch { d.append(error) }
            }
            if attrs.isEmpty { d.append(g.error("a unique key needs at least one attribute")) }
            keys.append(UniqueKeySpec(attributes: attrs, mark: g.mark, options: options))
        }
        return keys
    }

    private func parseRelationship(key: ConfigNode, node: ConfigNode, into d: inout [Diagnostic]) -> RelationshipSpec? {
        guard let name = key.scalar, !name.isEmpty else {
            d.append(key.error("a relationship name must be a non-empty string"))
            return nil
        }
        let map: ConfigMapping
        do { map = try node.mapping("relationship '\(name)'") } catch { d.append(error); return nil }
        d += map.unknownKeys(allowed: Self.relationshipKeys, context: "relationship '\(name)'")
        var rel = RelationshipSpec(name: name, mark: key.mark, attributes: [], references: nil, from: nil,
                                   minCount: nil, maxCount: nil, options: parseRuleOptions(map, into: &d))
        for k in ["attribute", "attributes"] {
            guard let a = map[k] else { continue }
            for item in a.sequenceOrSingle() {
                do { rel.attributes.append(try item.string(k)) } catch { d.append(error) }
            }
        }
        if let r = map["references"] {
            do throws(Diagnostic) {
                let (entity, attrs) = try qualifiedName(try r.string("references"), r, what: "references")
                rel.references = (entity, attrs, r.mark)
            } catch { d.append(error) }
            if rel.attributes.isEmpty { d.append(key.error("relationship '\(name)' references \(r.describe) but names no 'attribute'")) }
        }
        if let f = map["from"] {
            do throws(Diagnostic) {
                let (entity, parts) = try qualifiedName(try f.string("from"), f, what: "from")
                if parts.count != 1 { throw f.error("'from' names one relationship: from: Person.department") }
                rel.from = (entity, parts[0], f.mark)
            } catch { d.append(error) }
        }
        for (k, isMin) in [("minCount", true), ("maxCount", false)] {
            guard let n = map[k] else { continue }
            var valueNode = n
            var options = RuleOptions()
            if case .mapping = n.kind, let m = try? n.mapping(k) {
                d += m.unknownKeys(allowed: Self.valueOptionKeys, context: "'\(k)'")
                options = parseRuleOptions(m, into: &d)
                valueNode = m["value"] ?? n
            }
            do throws(Diagnostic) {
                let v = try valueNode.int(k)
                if v < 0 { throw valueNode.error("\(k) must not be negative; got \(v)") }
                if isMin { rel.minCount = (v, options) } else { rel.maxCount = (v, options) }
            } catch { d.append(error) }
        }
        if let n = map["deleteRule"] {
            var valueNode = n
            var options = RuleOptions()
            if case .mapping = n.kind, let m = try? n.mapping("deleteRule") {
                d += m.unknownKeys(allowed: Self.valueOptionKeys, context: "'deleteRule'")
                options = parseRuleOptions(m, into: &d)
                valueNode = m["value"] ?? n
            }
            let names = DeleteRule.allCases.map(\.rawValue)
            if let w = valueNode.scalar, let rule = DeleteRule(rawValue: w) {
                rel.deleteRule = (rule, n.mark, options)
            } else {
                var m = "deleteRule takes deny, nullify or cascade; got \(valueNode.describe)"
                if let w = valueNode.scalar, let c = Suggest.closest(to: w, in: names) { m += "; did you mean '\(c)'?" }
                d.append(valueNode.error(m))
            }
            if rel.references != nil {
                d.append(n.error("deleteRule belongs on the parent's side: declare it on a 'from:' relationship of \(rel.references?.entity ?? "the referenced entity") (as Core Data puts it on the to-many relationship)"))
            }
        }
        if rel.references == nil && rel.from == nil {
            d.append(key.error("relationship '\(name)' needs 'references: Entity.attribute' or 'from: Entity.relationship'"))
        }
        if rel.references != nil && rel.from != nil {
            d.append(key.error("relationship '\(name)' has both 'references' and 'from'; declare the two sides separately"))
        }
        if rel.from == nil && (rel.minCount != nil || rel.maxCount != nil) {
            d.append(key.error("minCount and maxCount count the records that reference this one: use them with 'from: Entity.relationship'"))
        }
        return rel
    }

    /// `Department.id` → (Department, [id]); `Department.(a, b)` → (Department, [a, b]).
    private func qualifiedName(_ text: String, _ node: ConfigNode, what: String) throws(Diagnostic) -> (String, [String]) {
        guard let dot = text.firstIndex(of: "."), dot != text.startIndex else {
            throw node.error("\(what) must read Entity.attribute (for example Department.id); got '\(text)'")
        }
        let entity = String(text[..<dot])
        var rest = text[text.index(after: dot)...].trimmingCharacters(in: .whitespaces)
        if rest.hasPrefix("(") && rest.hasSuffix(")") { rest = String(rest.dropFirst().dropLast()) }
        let parts = rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else {
            throw node.error("\(what) must read Entity.attribute or Entity.(a, b); got '\(text)'")
        }
        return (entity, parts)
    }

    private func parseRowCount(_ n: ConfigNode, into d: inout [Diagnostic]) -> (Int?, Int?, ConfigMark, RuleOptions)? {
        guard let m = try? n.mapping("rowCount") else {
            d.append(n.error("rowCount is a mapping: rowCount: { min: 1, max: 1000000 }"))
            return nil
        }
        d += m.unknownKeys(allowed: Self.rowCountKeys, context: "rowCount")
        var lo: Int?, hi: Int?
        do {
            if let v = m["min"] { lo = try v.int("rowCount min") }
            if let v = m["max"] { hi = try v.int("rowCount max") }
        } catch { d.append(error) }
        if lo == nil && hi == nil { d.append(n.error("rowCount needs 'min', 'max' or both")) }
        if let lo, let hi, lo > hi { d.append(n.error("rowCount min \(lo) is greater than max \(hi)")) }
        return (lo, hi, n.mark, parseRuleOptions(m, into: &d))
    }

    private func parseColumns(_ n: ConfigNode, into d: inout [Diagnostic]) -> ([String], Bool, ConfigMark, RuleOptions)? {
        guard let m = try? n.mapping("columns") else {
            d.append(n.error("columns is a mapping: columns: { required: [id, name], allowExtra: false }"))
            return nil
        }
        d += m.unknownKeys(allowed: Self.columnsKeys, context: "columns")
        var required = [String]()
        var allowExtra = true
        if let r = m["required"] {
            for item in r.sequenceOrSingle() {
                do { required.append(try item.string("a required column")) } catch { d.append(error) }
            }
        }
        if let a = m["allowExtra"] {
            do { allowExtra = try a.bool("allowExtra") } catch { d.append(error) }
        }
        return (required, allowExtra, n.mark, parseRuleOptions(m, into: &d))
    }

    private func parseFreshness(_ n: ConfigNode, into d: inout [Diagnostic]) -> (String, Int64, String, ConfigMark, RuleOptions)? {
        guard let m = try? n.mapping("freshness") else {
            d.append(n.error("freshness is a mapping: freshness: { attribute: created_at, maxAge: 36h }"))
            return nil
        }
        d += m.unknownKeys(allowed: Self.freshnessKeys, context: "freshness")
        guard let a = m["attribute"], let age = m["maxAge"] else {
            d.append(n.error("freshness needs 'attribute' and 'maxAge' (for example 36h, 2d, 90m)"))
            return nil
        }
        do throws(Diagnostic) {
            let attribute = try a.string("freshness attribute")
            let text = try age.string("maxAge")
            guard let seconds = DurationText.seconds(text) else {
                throw age.error("maxAge must be a duration like 36h, 2d, 90m, 1w or 1d12h; got '\(text)'")
            }
            return (attribute, seconds, text, n.mark, parseRuleOptions(m, into: &d))
        } catch {
            d.append(error)
            return nil
        }
    }
}
