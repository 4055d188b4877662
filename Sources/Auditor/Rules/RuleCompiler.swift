import Foundation

/// Turns a ``RulesSpec`` into an ``AuditPlan``: binds names, parses every constant once and
/// reports every mistake against the rules file.
public enum RuleCompiler {
    /// Compiles a parsed rules file.
    /// - Parameters:
    ///   - spec: The parsed rules file (``RulesFileParser``).
    ///   - catalog: Translated messages (`--locale`); English by default.
    ///   - now: The instant of `today()` and `now()` in expressions, seconds since 1970 (`--as-of`).
    ///   - typeNames: Per source, per field, how its values are written where a reader's options
    ///     say so (``ReaderOptions/typeName(of:as:)``): the `type:` rule's `{typeName}`.
    /// - Throws: ``AuditError`` `.invalidRules` with all diagnostics.
    public static func compile(_ spec: RulesSpec, catalog: MessageCatalog = .english,
                               now: Int64 = Int64(Date().timeIntervalSince1970),
                               typeNames: [String: [String: String]] = [:]) throws -> AuditPlan {
        var d = [Diagnostic]()
        var entities = [EntityPlan]()
        var seenIDs = [String: String]()     // rule id → entity, ids are global
        for e in spec.entities {
            let plan = compileEntity(e, source: e.source, catalog: catalog, typeNames: typeNames[e.source] ?? [:], into: &d)
            for r in plan.rules {
                if let other = seenIDs[r.id], other != e.name {
                    d.append(Diagnostic(mark: e.mark, message: "rule id '\(r.id)' is used by entities '\(other)' and '\(e.name)'; ids must be unique across entities"))
                }
                seenIDs[r.id] = e.name
            }
            entities.append(plan)
        }
        compileRelations(spec, &entities, catalog: catalog, into: &d)
        for (i, e) in spec.entities.enumerated() {
            compileRecordRules(e, &entities[i], catalog: catalog, now: now, into: &d)
        }
        // Contradictions (RulesLint): constraints no value satisfies; record rules that can
        // never hold, decided on expressions that compiled.
        d += RulesLint.constraintErrors(spec)
        if d.isEmpty { for e in spec.entities { d += RecordRuleIntervals.errors(e) } }
        if !d.isEmpty { throw AuditError.invalidRules(d) }
        var plan = AuditPlan(rulesPath: spec.path, sources: spec.sources, entities: entities, catalog: catalog)
        plan.historyPath = spec.history
        return plan
    }

    static func compileEntity(_ e: EntitySpec, source: String, catalog: MessageCatalog, typeNames: [String: String] = [:],
                              into d: inout [Diagnostic]) -> EntityPlan {
        var plan = EntityPlan(name: e.name, source: source, key: e.key, rules: [], attributes: [], checks: [])
        plan.validators = e.validators
        var slotOf = [String: Int]()
        var explicit = [Int: (severity: Severity?, code: Int?)]()
        for a in e.attributes {
            var attr = AttributePlan(name: a.name, mark: a.mark, type: a.type, sensitive: a.sensitive, split: a.split,
                                     keySeparator: a.keySeparator, checks: [])
            var attrParams = parameters(of: a)
            attrParams["field"] = catalog.displayName(attribute: a.name, of: e.name)
            attrParams["entity"] = catalog.displayName(entity: e.name)
            let written = typeNames[a.name]
            if let written { attrParams["typeName"] = written }
            for c in a.constraints {
                guard let (test, compiled) = compileTest(c, attribute: a, into: &d) else { continue }
                let builtInSummary = c.kind == .type ? written.map { "\(a.name) is \($0)" } ?? compiled : compiled
                let summary = catalog.summary(c.kind.rawValue, a.type) { attrParams[$0] } ?? builtInSummary
                let id = c.id ?? "\(e.idPrefix).\(a.name).\(c.kind.rawValue)"
                let severity = c.severity ?? a.severity ?? e.severity
                let code = c.code ?? c.kind.defaultCode(for: a.type)
                let slot: Int
                if let s = slotOf[id] {
                    slot = s
                    plan.rules[s].kinds.append(c.kind.rawValue)
                    plan.rules[s].summaries.append(summary)
                    if plan.rules[s].attribute != a.name { plan.rules[s].attribute = nil }
                    let prior = explicit[s]
                    if let sv = c.severity, let p = prior?.severity, p != sv {
                        d.append(Diagnostic(mark: c.mark, message: "rule '\(id)' is declared with severity \(p.rawValue) and \(sv.rawValue); constraints sharing an id share its severity"))
                    }
                } else {
                    slot = plan.rules.count
                    slotOf[id] = slot
                    explicit[slot] = (c.severity, c.code)
                    plan.rules.append(RuleInfo(id: id, entity: e.name, source: source, attribute: a.name,
                                               kinds: [c.kind.rawValue], severity: severity, code: code,
                                               summaries: [summary],
                                               threshold: c.threshold.over(a.threshold).over(e.threshold),
                                               definedAt: c.mark, description: c.description ?? a.description,
                                               hint: c.hint ?? a.hint))
                }
                // An attribute-level message covers its value constraints, not required/type.
                // A catalog's entry is located in the catalog: its mistakes point there.
                let attributeMessage = c.kind.isPresenceKind || c.kind == .type ? nil : a.message
                let fromCatalog = catalog.ruleEntry(id)
                    ?? ((c.message ?? attributeMessage) == nil ? catalog.kindEntry(c.kind.rawValue, a.type) : nil)
                let text = fromCatalog?.text ?? c.message ?? attributeMessage ?? c.kind.defaultMessage(for: a.type)
                let messageMark = fromCatalog?.mark ?? c.messageMark ?? c.mark
                let template: MessageTemplate
                do {
                    template = try MessageTemplate(text, language: catalog.locale)
                } catch {
                    d.append(Diagnostic(mark: messageMark, message: error.message))
                    continue
                }
                let known = Set(attrParams.keys).union(commonPlaceholders)
                for p in Set(template.placeholders).sorted() where !known.contains(p) {
                    var m = "unknown placeholder '{\(p)}' in the message of '\(id)'"
                    if fromCatalog?.mark != nil { m += " (\(a.name) has no such parameter)" }
                    if let s = Suggest.closest(to: p, in: Array(known).sorted()) { m += "; did you mean '{\(s)}'?" }
                    d.append(Diagnostic(mark: messageMark, message: m))
                }
                var params = attrParams
                params["rule"] = id
                params["code"] = String(code)     // this constraint's own, also under a shared id
                params["severity"] = plan.rules[slot].severity.rawValue
                var scope = c.on ?? a.on
                if c.kind == .immutable || c.kind == .transitions {
                    if let s = c.on, s != .updated {
                        d.append(Diagnostic(mark: c.mark, message: "'\(c.kind.rawValue)' is checked on updated records only; remove 'on: [\(s.description)]'"))
                    }
                    scope = .updated
                }
                attr.checks.append(plan.checks.count)
                plan.checks.append(Check(kind: c.kind.rawValue, test: test, slot: slot, attribute: plan.attributes.count,
                                         message: template, parameters: params, scope: scope, code: code))
            }
            plan.attributes.append(attr)
        }
        return plan
    }

    /// Placeholders every message may use besides the attribute's constraint parameters.
    static let commonPlaceholders: Set<String> = ["value", "field", "attribute", "entity", "rule", "code",
                                                  "severity", "key", "type", "length", "first", "firstLine", "firstKind",
                                                  "location", "violations", "old"]

    /// The attribute's constraint parameters as written (`minLength` → `3`).
    static func parameters(of a: AttributeSpec) -> [String: String] {
        var p = ["field": a.name, "attribute": a.name, "type": a.type.rawValue, "typeName": a.type.phrase]
        for c in a.constraints where c.kind == .transitions {
            if let t = try? transitions(c.value) {
                p["transitions"] = t.allowed.map { t in
                    "\(t.from.map { String(decoding: $0, as: UTF8.self) } ?? "*") -> \(t.to.map { String(decoding: $0, as: UTF8.self) } ?? "*")"
                }.joined(separator: ", ")
            }
        }
        for c in a.constraints where !c.kind.isPresenceKind && c.kind != .type && c.kind != .unique && c.kind != .integral
            && c.kind != .immutable && c.kind != .transitions && !c.kind.isValidatorKind {
            if case .sequence(let items) = c.value.kind {
                p[c.kind.rawValue] = items.compactMap(\.scalar).joined(separator: ", ")
            } else if let s = c.value.scalar {
                p[c.kind.rawValue] = s
            }
        }
        return p
    }

    static func compileTest(_ c: ConstraintSpec, attribute a: AttributeSpec,
                            into d: inout [Diagnostic]) -> (Check.Test, String)? {
        let name = a.name
        let v = c.value
        do throws(Diagnostic) {
            switch c.kind {
            case .required:
                return (.required, "\(name) is present")
            case .allowsNull:
                return (.notNull, "\(name) is not null")
            case .allowsMissing:
                return (.notAbsent, "\(name) is present, possibly null")
            case .type:
                return (.type, "\(name) is \(a.type.phrase)")
            case .min, .max, .exclusiveMin, .exclusiveMax:
                guard a.type.isOrdered else {
                    d.append(v.error("'\(c.kind.rawValue)' applies to numbers, dates and date-times, but '\(name)' has type \(a.type.rawValue); use minLength/maxLength for text"))
                    return nil
                }
                let bound = try orderedConstant(v, type: a.type, what: c.kind.rawValue)
                let text = v.scalar ?? ""
                let isDate = a.type == .date || a.type == .datetime
                switch c.kind {
                case .min: return (.lowerBound(bound, inclusive: true), isDate ? "\(name) is on or after \(text)" : "\(name) is at least \(text)")
                case .exclusiveMin: return (.lowerBound(bound, inclusive: false), isDate ? "\(name) is after \(text)" : "\(name) is greater than \(text)")
                case .max: return (.upperBound(bound, inclusive: true), isDate ? "\(name) is on or before \(text)" : "\(name) is at most \(text)")
                default: return (.upperBound(bound, inclusive: false), isDate ? "\(name) is before \(text)" : "\(name) is less than \(text)")
                }
            case .minLength, .maxLength:
                let n = try v.int(c.kind.rawValue)
                guard n >= 0 else {
                    d.append(v.error("\(c.kind.rawValue) must not be negative; got \(n)"))
                    return nil
                }
                return c.kind == .minLength
                    ? (.minLength(n), "\(name) has at least \(n) character\(n == 1 ? "" : "s")")
                    : (.maxLength(n), "\(name) has at most \(n) character\(n == 1 ? "" : "s")")
            case .pattern:
                let source = try v.string("pattern")
                do {
                    return (.pattern(try Pattern(source)), "\(name) matches \(source)")
                } catch {
                    var mark = v.mark
                    mark.column = v.column(ofOffset: error.offset)
                    d.append(Diagnostic(mark: mark, message: "invalid pattern: \(error.message)"))
                    return nil
                }
            case .enum:
                let items = try v.sequence("enum")
                guard !items.isEmpty else {
                    d.append(v.error("enum must list at least one value"))
                    return nil
                }
                var texts = [String]()
                for item in items { texts.append(try item.string("an enum value")) }
                let summary = "\(name) is one of \(texts.joined(separator: ", "))"
                if a.type == .integer || a.type == .decimal {
                    var numbers = [ExactDecimal]()
                    for (item, t) in zip(items, texts) {
                        guard let parsed = ExactDecimal(t) else { throw item.error("enum value '\(t)' is not \(a.type.phrase)") }
                        numbers.append(parsed)
                    }
                    return (.enumNumber(NumberSet(numbers)), summary)
                }
                return (.enumText(texts.map { Array($0.utf8) }), summary)
            case .integral:
                guard a.type == .decimal || a.type == .integer else {
                    d.append(v.error("'integral' applies to numbers, but '\(name)' has type \(a.type.rawValue)"))
                    return nil
                }
                return (.integral, "\(name) is a whole number")
            case .unique:
                return (.unique, "\(name) is unique")
            case .immutable:
                return (.immutable, "\(name) does not change once set")
            case .transitions:
                let t = try transitions(v)
                let words = t.allowed.map { "\($0.from.map { String(decoding: $0, as: UTF8.self) } ?? "*") -> \($0.to.map { String(decoding: $0, as: UTF8.self) } ?? "*")" }
                return (.transitions(t), "\(name) changes only \(words.joined(separator: ", "))")
            case .allOf, .anyOf, .oneOf, .not, .minCount, .maxCount, .each, .uniqueItems, .keys, .requiredKeys, .allowedKeys,
                 .eachKey, .eachValue, .pairs:
                var problems = [Diagnostic]()
                guard let validator = ConstraintTreeCompiler().compile(key: c.kind.rawValue, value: v,
                                                                       type: a.split == nil ? a.type : nil,
                                                                       into: &problems) else {
                    d += problems
                    return nil
                }
                return (.validator(validator), "\(name) must \(validator.summary)")
            }
        } catch {
            d.append(error)
            return nil
        }
    }

    /// `transitions: ["draft -> published", "* -> archived"]` or
    /// `transitions: { draft: [published, archived], published: archived }`.
    static func transitions(_ v: ConfigNode) throws(Diagnostic) -> Transitions {
        func side(_ s: Substring) -> [UInt8]? {
            let t = s.trimmingCharacters(in: .whitespaces)
            return t == "*" ? nil : Array(t.utf8)
        }
        var allowed = [(from: [UInt8]?, to: [UInt8]?)]()
        switch v.kind {
        case .mapping:
            for (k, targets) in try v.mapping("transitions").pairs {
                let from = try k.string("a transition's source value")
                for t in targets.sequenceOrSingle() {
                    allowed.append((side(Substring(from)), side(Substring(try t.string("a transition's target value")))))
                }
            }
        default:
            for item in v.sequenceOrSingle() {
                let text = try item.string("a transition")
                guard let arrow = text.range(of: "->"), !text[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces).isEmpty,
                      !text[arrow.upperBound...].trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw item.error("a transition reads 'from -> to' (for example 'draft -> published'; * matches any value); got '\(text)'")
                }
                allowed.append((side(text[..<arrow.lowerBound]), side(text[arrow.upperBound...])))
            }
        }
        if allowed.isEmpty { throw v.error("transitions must list at least one allowed change, for example 'draft -> published'") }
        return Transitions(allowed: allowed)
    }

    /// Parses a bound for an ordered type, exactly: numbers at any length, dates as days,
    /// date-times with every digit of their fraction.
    static func orderedConstant(_ v: ConfigNode, type: ValueType, what: String) throws(Diagnostic) -> OrderedBound {
        let text = try v.string(what)
        let bytes = Array(text.utf8)
        switch type {
        case .integer, .decimal:
            guard let exact = ExactDecimal(text) else {
                throw v.error("\(what) must be a number like 0 or -12.5; got '\(text)'")
            }
            // The correctly rounded double (the C library's strtod; ±infinity past 1e308),
            // which orders like the exact value.
            return OrderedBound(fast: Double(text) ?? .nan, exact: .number(exact))
        case .date:
            guard let days = bytes.withUnsafeBufferPointer({ ByteParsers.date($0) }) else {
                throw v.error("\(what) must be a date like 2020-01-31; got '\(text)'")
            }
            return OrderedBound(fast: Double(days), exact: nil)
        case .datetime:
            guard let instant = bytes.withUnsafeBufferPointer({ ExactInstant(text: $0) }) else {
                throw v.error("\(what) must be a date-time like 2020-01-31T00:00:00Z; got '\(text)'")
            }
            return OrderedBound(fast: Double(instant.seconds), exact: .instant(instant))
        case .string, .boolean:
            throw v.error("\(what) does not apply to \(type.rawValue)")
        }
    }

}
