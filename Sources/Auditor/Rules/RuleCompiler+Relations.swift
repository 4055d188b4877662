/// Compilation of cross-record rules, after every entity's property rules: uniqueness
/// (single and composite), references, cardinality and table rules.
extension RuleCompiler {
    static func compileRelations(_ spec: RulesSpec, _ plans: inout [EntityPlan], catalog: MessageCatalog,
                                  into d: inout [Diagnostic]) {
        let index = Dictionary(spec.entities.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        // Pass 1: uniqueness and references (from-rules need the children's reference rules).
        for (ei, e) in spec.entities.enumerated() {
            for ci in plans[ei].checks.indices {
                guard case .unique = plans[ei].checks[ci].test, let a = plans[ei].checks[ci].attribute else { continue }
                plans[ei].checks[ci].test = .keyed
                plans[ei].keyRules.append(KeyRule(kind: .unique, shape: shape(plans[ei], [a]), check: ci))
            }
            for u in e.uniqueKeys {
                guard let attrs = resolve(u.attributes, in: plans[ei], at: u.mark, into: &d) else { continue }
                let names = u.attributes.joined(separator: "+")
                let ci = addCheck(&plans[ei], id: u.options.id ?? "\(e.idPrefix).\(names).unique", kind: "unique",
                                  attribute: attrs.count == 1 ? attrs[0] : nil, summary: "\(u.attributes.joined(separator: ", ")) is unique",
                                  code: .unique, options: u.options, entity: e, mark: u.mark, catalog: catalog,
                                  messageKind: "unique.composite",
                                  parameters: ["attributes": u.attributes.map { catalog.displayName(attribute: $0, of: e.name) }
                                                   .joined(separator: ", ")], into: &d)
                plans[ei].keyRules.append(KeyRule(kind: .unique, shape: shape(plans[ei], attrs), check: ci))
            }
            for rel in e.relationships {
                guard let target = rel.references else { continue }
                guard let ti = index[target.entity] else {
                    var m = "relationship '\(rel.name)' references an unknown entity '\(target.entity)'"
                    if let s = Suggest.closest(to: target.entity, in: Array(index.keys).sorted()) { m += "; did you mean '\(s)'?" }
                    d.append(Diagnostic(mark: target.mark, message: m))
                    continue
                }
                guard let attrs = resolve(rel.attributes, in: plans[ei], at: rel.mark, into: &d),
                      let targetAttrs = resolve(target.attributes, in: plans[ti], at: target.mark, into: &d) else { continue }
                guard attrs.count == targetAttrs.count else {
                    d.append(Diagnostic(mark: target.mark, message: "relationship '\(rel.name)' has \(attrs.count) attribute\(attrs.count == 1 ? "" : "s") but references \(targetAttrs.count)"))
                    continue
                }
                let from = shape(plans[ei], attrs)
                let to = shape(plans[ti], targetAttrs)
                if from.types != to.types {
                    d.append(Diagnostic(mark: target.mark, message: "relationship '\(rel.name)' compares \(from.types.map(\.rawValue).joined(separator: ", ")) with \(to.types.map(\.rawValue).joined(separator: ", ")) of \(target.entity); declare the same types on both sides"))
                    continue
                }
                let pk = plans[ti].providedKeys.firstIndex(of: to) ?? {
                    plans[ti].providedKeys.append(to)
                    return plans[ti].providedKeys.count - 1
                }()
                let targetKey = "\(target.entity).\(target.attributes.joined(separator: "+"))"
                let id = rel.options.id ?? (rel.attributes.count == 1 ? "\(e.idPrefix).\(rel.attributes[0]).fk" : "\(e.idPrefix).\(rel.name).fk")
                let ci = addCheck(&plans[ei], id: id, kind: "reference", attribute: attrs[0],
                                  summary: "\(rel.attributes.joined(separator: ", ")) references an existing \(targetKey)",
                                  code: .foreignKey, options: rel.options, entity: e, mark: rel.mark, catalog: catalog,
                                  messageKind: attrs.count == 1 ? "fk" : "fk.composite",
                                  parameters: ["target": target.entity, "targetKey": targetKey, "relationship": rel.name,
                                               "attributes": rel.attributes.map { catalog.displayName(attribute: $0, of: e.name) }
                                                   .joined(separator: ", ")], into: &d)
                plans[ei].keyRules.append(KeyRule(kind: .reference(entity: ti, providedKey: pk, relationship: rel.name),
                                                  shape: from, check: ci))
            }
        }
        // Pass 2: cardinality on the parent side, and table rules.
        for (ei, e) in spec.entities.enumerated() {
            for rel in e.relationships {
                guard let from = rel.from else { continue }
                guard let ci = index[from.entity],
                      let childRel = spec.entities[ci].relationships.first(where: { $0.name == from.relationship }) else {
                    let known = index[from.entity].map { spec.entities[$0].relationships.map { "\(from.entity).\($0.name)" } } ?? Array(index.keys)
                    var m = "relationship '\(rel.name)' counts '\(from.entity).\(from.relationship)', which is not a declared relationship"
                    if let s = Suggest.closest(to: "\(from.entity).\(from.relationship)", in: known) { m += "; did you mean '\(s)'?" }
                    d.append(Diagnostic(mark: from.mark, message: m))
                    continue
                }
                guard childRel.references?.entity == e.name,
                      let kr = plans[ci].keyRules.firstIndex(where: {
                          if case .reference(let t, _, let r) = $0.kind { return t == ei && r == childRel.name }
                          return false
                      }),
                      case .reference(_, let pk, _) = plans[ci].keyRules[kr].kind else {
                    d.append(Diagnostic(mark: from.mark, message: "'\(from.entity).\(from.relationship)' does not reference \(e.name); 'from' must name a relationship that points at this entity"))
                    continue
                }
                var rule = CardinalityRule(childEntity: ci, childKeyRule: kr, providedKey: pk, min: rel.minCount?.value,
                                           max: rel.maxCount?.value, minCheck: nil, maxCheck: nil, relationship: rel.name)
                let params = ["relationship": rel.name, "child": from.entity]
                if let (v, o) = rel.minCount {
                    rule.minCheck = addCheck(&plans[ei], id: o.id ?? "\(e.idPrefix).\(rel.name).minCount", kind: "minCount", attribute: nil,
                                             summary: "at least \(v) \(from.entity) \(v == 1 ? "record references" : "records reference") each \(e.name)", code: .minCount,
                                             options: o.merged(rel.options), entity: e, mark: rel.mark, catalog: catalog,
                                             messageKind: "relationship.minCount",
                                             parameters: params.merging(["minCount": String(v)]) { a, _ in a }, into: &d)
                }
                if let (v, o) = rel.maxCount {
                    rule.maxCheck = addCheck(&plans[ei], id: o.id ?? "\(e.idPrefix).\(rel.name).maxCount", kind: "maxCount", attribute: nil,
                                             summary: "at most \(v) \(from.entity) \(v == 1 ? "record references" : "records reference") each \(e.name)", code: .maxCount,
                                             options: o.merged(rel.options), entity: e, mark: rel.mark, catalog: catalog,
                                             messageKind: "relationship.maxCount",
                                             parameters: params.merging(["maxCount": String(v)]) { a, _ in a }, into: &d)
                }
                if rule.min != nil || rule.max != nil { plans[ei].cardinality.append(rule) }
                if let (dr, mark, o) = rel.deleteRule {
                    compileDeleteRule(dr, mark: mark, options: o.merged(rel.options), parent: e, parentIndex: ei,
                                      relationship: rel.name, child: spec.entities[ci], childIndex: ci, childKeyRule: kr,
                                      &plans, catalog: catalog, into: &d)
                }
            }
            compileTableRules(e, &plans[ei], catalog: catalog, into: &d)
        }
    }

    /// `deleteRule:` on a parent's `from:` relationship. Deny is checked on the deleted parent;
    /// nullify and cascade on each child that still references a deleted parent.
    private static func compileDeleteRule(_ rule: DeleteRule, mark: ConfigMark, options o: RuleOptions, parent e: EntitySpec,
                                          parentIndex ei: Int, relationship: String, child: EntitySpec, childIndex ci: Int,
                                          childKeyRule kr: Int, _ plans: inout [EntityPlan], catalog: MessageCatalog,
                                          into d: inout [Diagnostic]) {
        let id = o.id ?? "\(e.idPrefix).\(relationship).deleteRule"
        let params = ["relationship": relationship, "child": child.name, "parent": e.name, "deleteRule": rule.rawValue]
        switch rule {
        case .deny:
            let check = addCheck(&plans[ei], id: id, kind: "deleteRule", attribute: nil,
                                 summary: "a deleted \(e.name) is not referenced by any \(child.name) (deny)", code: .deniedDelete,
                                 options: o, entity: e, mark: mark, catalog: catalog,
                                 messageKind: "deleteRule.deny",
                                 parameters: params, into: &d)
            plans[ei].deleteRules.append(DeleteRuleCheck(rule: rule, childEntity: ci, childKeyRule: kr, check: check,
                                                         relationship: relationship))
        case .nullify, .cascade:
            let summary = rule == .nullify
                ? "\(child.name) records of a deleted \(e.name) have their reference cleared (nullify)"
                : "\(child.name) records of a deleted \(e.name) are deleted with it (cascade)"
            let check = addCheck(&plans[ci], id: id, kind: "deleteRule", attribute: plans[ci].keyRules[kr].shape.attributes.first,
                                 summary: summary, code: rule == .nullify ? .nullify : .cascade, options: o, entity: child,
                                 mark: mark, catalog: catalog, messageKind: "deleteRule.\(rule.rawValue)", parameters: params, into: &d)
            plans[ci].childDeleteChecks[kr] = (check, rule, e.name)
            plans[ei].deleteRules.append(DeleteRuleCheck(rule: rule, childEntity: ci, childKeyRule: kr, check: check,
                                                         relationship: relationship))
        }
    }

    private static func compileTableRules(_ e: EntitySpec, _ plan: inout EntityPlan, catalog: MessageCatalog,
                                          into d: inout [Diagnostic]) {
        let t = e.tableRules
        if let r = t.rowCount {
            var params = [String: String]()
            var words = [String]()
            if let lo = r.min { params["min"] = String(lo); words.append("at least \(lo)") }
            if let hi = r.max { params["max"] = String(hi); words.append("at most \(hi)") }
            let ci = addCheck(&plan, id: r.options.id ?? "\(e.idPrefix).rowCount", kind: "rowCount", attribute: nil,
                              summary: "\(e.name) has \(words.joined(separator: " and ")) records", code: .rowCount,
                              options: r.options, entity: e, mark: r.mark, catalog: catalog,
                              messageKind: "rowCount",
                              parameters: params.merging(["expected": words.joined(separator: " and "),
                                                          "bounds": r.min == nil ? "max" : r.max == nil ? "min" : "both"]) { a, _ in a },
                              into: &d)
            plan.tableRules.append(TableRule(kind: .rowCount(min: r.min, max: r.max), check: ci))
        }
        if let c = t.columns {
            let ci = addCheck(&plan, id: c.options.id ?? "\(e.idPrefix).columns", kind: "columns", attribute: nil,
                              summary: c.allowExtra ? "the input has columns \(c.required.joined(separator: ", "))"
                                  : "the input has exactly the declared columns",
                              code: .columns, options: c.options, entity: e, mark: c.mark, catalog: catalog,
                              messageKind: "columns", parameters: [:], into: &d)
            plan.tableRules.append(TableRule(kind: .columns(required: c.required, allowExtra: c.allowExtra), check: ci))
            plan.toleratesMissingColumns = true
        }
        if let f = t.freshness {
            guard let a = plan.attributes.firstIndex(where: { $0.name == f.attribute }) else {
                var m = "freshness names an unknown attribute '\(f.attribute)'"
                if let s = Suggest.closest(to: f.attribute, in: plan.fields) { m += "; did you mean '\(s)'?" }
                d.append(Diagnostic(mark: f.mark, message: m))
                return
            }
            guard plan.attributes[a].type == .date || plan.attributes[a].type == .datetime else {
                d.append(Diagnostic(mark: f.mark, message: "freshness needs a date or datetime attribute; '\(f.attribute)' is \(plan.attributes[a].type.rawValue)"))
                return
            }
            let ci = addCheck(&plan, id: f.options.id ?? "\(e.idPrefix).freshness", kind: "freshness", attribute: a,
                              summary: "the newest \(f.attribute) is at most \(f.maxAgeText) old", code: .freshness,
                              options: f.options, entity: e, mark: f.mark, catalog: catalog,
                              messageKind: "freshness",
                              parameters: ["maxAge": f.maxAgeText], into: &d)
            plan.tableRules.append(TableRule(kind: .freshness(attribute: a, maxAge: f.maxAge), check: ci))
        }
    }

    private static func shape(_ plan: EntityPlan, _ attrs: [Int]) -> KeyShape {
        KeyShape(attributes: attrs, types: attrs.map { plan.attributes[$0].type })
    }

    private static func resolve(_ names: [String], in plan: EntityPlan, at mark: ConfigMark,
                                into d: inout [Diagnostic]) -> [Int]? {
        var result = [Int]()
        for n in names {
            if let i = plan.attributes.firstIndex(where: { $0.name == n }) {
                result.append(i)
            } else {
                var m = "'\(n)' is not an attribute of '\(plan.name)'"
                if let s = Suggest.closest(to: n, in: plan.fields) { m += "; did you mean '\(s)'?" }
                d.append(Diagnostic(mark: mark, message: m))
                return nil
            }
        }
        return result
    }

    /// Adds a rule (or joins an existing one with the same id) and its check.
    /// - Returns: The check's index.
    static func addCheck(_ plan: inout EntityPlan, id: String, kind: String, attribute: Int?, summary: String, code: FindingCode,
                         options: RuleOptions, entity e: EntitySpec, mark: ConfigMark, catalog: MessageCatalog,
                         messageKind: String, parameters: [String: String], extraPlaceholders: Set<String> = [],
                         into d: inout [Diagnostic]) -> Int {
        let summary = catalog.summary(messageKind) { p in
            switch p {
            case "field": return attribute.map { catalog.displayName(attribute: plan.attributes[$0].name, of: e.name) }
            case "entity": return catalog.displayName(entity: e.name)
            case "target", "child", "parent": return parameters[p].map(catalog.displayName(entity:))
            default: return parameters[p]
            }
        } ?? summary
        let slot: Int
        if let s = plan.rules.firstIndex(where: { $0.id == id }) {
            slot = s
            plan.rules[s].kinds.append(kind)
            plan.rules[s].summaries.append(summary)
        } else {
            slot = plan.rules.count
            plan.rules.append(RuleInfo(id: id, entity: e.name, source: e.source,
                                       attribute: attribute.map { plan.attributes[$0].name }, kinds: [kind],
                                       severity: options.severity ?? e.severity, code: options.code ?? code.rawValue,
                                       summaries: [summary], threshold: options.threshold.over(e.threshold), definedAt: mark,
                                       description: options.description, hint: options.hint))
        }
        var params = parameters
        if let attribute { params["field"] = catalog.displayName(attribute: plan.attributes[attribute].name, of: e.name) }
        params["entity"] = catalog.displayName(entity: e.name)
        // Entities and attributes named in the message read as the catalog names them.
        for k in ["target", "child", "parent"] { if let v = params[k] { params[k] = catalog.displayName(entity: v) } }
        params["rule"] = id
        // Each check carries the code of its own constraint (rules sharing an id may differ).
        let checkCode = options.code ?? code.rawValue
        params["code"] = String(checkCode)
        params["severity"] = plan.rules[slot].severity.rawValue
        // The rule's own catalog entry, its rules-file message, the catalog's entry for its kind,
        // the built-in message; a catalog's entry is located in the catalog.
        let defaultMessage = BuiltInMessages.templates[messageKind] ?? "{rule}"
        let fromCatalog = catalog.ruleEntry(id) ?? (options.message == nil ? catalog.kindEntry(messageKind) : nil)
        let text = fromCatalog?.text ?? options.message ?? defaultMessage
        let messageMark = fromCatalog?.mark ?? options.messageMark ?? mark
        let template: MessageTemplate
        do {
            template = try MessageTemplate(text, language: catalog.locale)
        } catch {
            d.append(Diagnostic(mark: messageMark, message: error.message))
            template = (try? MessageTemplate(defaultMessage)) ?? MessageTemplate(literal: "{rule}")
        }
        let known = Set(params.keys).union(commonPlaceholders).union(extraPlaceholders)
            .union(BuiltInMessages.placeholders(of: messageKind) ?? [])
        for p in Set(template.placeholders).sorted() where !known.contains(p) {
            var m = "unknown placeholder '{\(p)}' in the message of '\(id)'"
            if let s = Suggest.closest(to: p, in: Array(known).sorted()) { m += "; did you mean '{\(s)}'?" }
            d.append(Diagnostic(mark: messageMark, message: m))
        }
        plan.checks.append(Check(kind: kind, test: .keyed, slot: slot, attribute: attribute, message: template, parameters: params,
                                 code: checkCode))
        return plan.checks.count - 1
    }
}

extension RuleOptions {
    /// These options with unset fields taken from `other`.
    func merged(_ other: RuleOptions) -> RuleOptions {
        var o = self
        o.message = o.message ?? other.message
        o.messageMark = o.messageMark ?? other.messageMark
        o.severity = o.severity ?? other.severity
        o.code = o.code ?? other.code
        o.threshold = o.threshold.over(other.threshold)
        o.description = o.description ?? other.description
        o.hint = o.hint ?? other.hint
        return o
    }
}
