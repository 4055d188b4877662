/// Interval reasoning on record rules (`rules:` with `when:` and `assert:`): decides, from the
/// attributes' declared bounds and enums, whether an assertion can never hold (an error: every
/// record it checks would fail) or can never fail (a warning: the rule checks nothing), and
/// whether a condition can never hold (a warning: the rule never applies).
///
/// The analysis is sound and incomplete: it claims "never" only when no values within the
/// attributes' bounds make the expression true (or false); anything it cannot model (functions,
/// products, one attribute compared with itself) counts as "may be either". It runs on the
/// parsed and type-checked expression of a rule that compiled.
enum RecordRuleIntervals {
    /// A set of possible values: an interval of numbers (dates as days, date-times as
    /// seconds), a finite set of strings, or anything.
    enum Abstract {
        case interval(Interval)
        case strings(Set<String>)
        case unknown
    }

    struct Interval {
        var lo: Double, loIn: Bool
        var hi: Double, hiIn: Bool
        static let all = Interval(lo: -.infinity, loIn: false, hi: .infinity, hiIn: false)
        static func point(_ v: Double) -> Interval { Interval(lo: v, loIn: true, hi: v, hiIn: true) }
        var isEmpty: Bool { lo > hi || (lo == hi && !(loIn && hiIn)) }
        var isPoint: Bool { lo == hi && loIn && hiIn }
        func intersect(_ o: Interval) -> Interval {
            var r = self
            if o.lo > r.lo || (o.lo == r.lo && !o.loIn) { r.lo = o.lo; r.loIn = o.loIn }
            if o.hi < r.hi || (o.hi == r.hi && !o.hiIn) { r.hi = o.hi; r.hiIn = o.hiIn }
            return r
        }
    }

    /// What an expression can evaluate to: true for some values, false for some values.
    struct Truth { var canTrue: Bool, canFalse: Bool }

    struct Attribute {
        var type: ValueType
        var value: Abstract
    }

    typealias Env = [String: Attribute]

    /// The lint diagnostics of an entity's record rules.
    static func lint(_ e: EntitySpec) -> [LintDiagnostic] {
        let env = environment(e)
        var out = [LintDiagnostic]()
        for rule in e.recordRules {
            guard let assert = syntax(rule.assert.text) else { continue }
            var scope = env
            if let w = rule.when, let when = syntax(w.text) {
                let t = truth(when, env)
                if !t.canTrue {
                    out.append(LintDiagnostic(.warning, Diagnostic(mark: start(w.node), message: "the condition '\(w.text)' can never hold for values within the attributes' declared bounds and enums, so the rule never applies; fix the condition or remove the rule")))
                    continue
                }
                scope = refine(when, true, env)
            }
            let t = truth(assert, scope)
            let mark = start(rule.assert.node)
            if !t.canTrue && t.canFalse {
                out.append(LintDiagnostic(.error, Diagnostic(mark: mark, message: "the assertion '\(rule.assert.text)' can never hold for values within the attributes' declared bounds and enums, so every record it checks would fail; fix the assertion or the bounds")))
            } else if !t.canFalse && t.canTrue {
                out.append(LintDiagnostic(.warning, Diagnostic(mark: mark, message: "the assertion '\(rule.assert.text)' always holds for values within the attributes' declared bounds and enums, so the rule can never fail; remove it or tighten it")))
            }
        }
        return out
    }

    /// The entity's errors only (for the compiler).
    static func errors(_ e: EntitySpec) -> [Diagnostic] { lint(e).filter { $0.level == .error }.map(\.diagnostic) }

    /// The entity's warnings only.
    static func warnings(_ e: EntitySpec) -> [Diagnostic] { lint(e).filter { $0.level == .warning }.map(\.diagnostic) }

    private static func syntax(_ text: String) -> ExpressionSyntax? {
        var lexer = ExpressionLexer(text)
        guard let tokens = try? lexer.tokenize() else { return nil }
        var parser = ExpressionParser(tokens: tokens, source: text)
        return try? parser.parse()
    }

    private static func start(_ node: ConfigNode) -> ConfigMark {
        var mark = node.mark
        mark.column = node.column(ofOffset: 0)
        return mark
    }

    /// Each attribute's values allowed by its own bounds (ordered types) or enum (strings).
    static func environment(_ e: EntitySpec) -> Env {
        var env = Env()
        for a in e.attributes where a.split == nil {
            var value = Abstract.unknown
            if a.type.isOrdered {
                var i = Interval.all
                for c in a.constraints {
                    guard [.min, .max, .exclusiveMin, .exclusiveMax].contains(c.kind),
                          let b = try? RuleCompiler.orderedConstant(c.value, type: a.type, what: "bound") else { continue }
                    let inclusive = c.kind == .min || c.kind == .max
                    if c.kind == .min || c.kind == .exclusiveMin {
                        i = i.intersect(Interval(lo: b.fast, loIn: inclusive, hi: .infinity, hiIn: false))
                    } else {
                        i = i.intersect(Interval(lo: -.infinity, loIn: false, hi: b.fast, hiIn: inclusive))
                    }
                }
                // Datetime bounds are floored to a second: keep them closed, never tighter.
                if a.type == .datetime { i.loIn = true; i.hiIn = true; if i.hi.isFinite { i.hi += 1 } }
                value = i.isEmpty ? .unknown : .interval(discrete(i, a.type))
            } else if a.type == .string, let en = a.constraints.first(where: { $0.kind == .enum }),
                      case .sequence(let items) = en.value.kind {
                value = .strings(Set(items.compactMap(\.scalar)))
            }
            env[a.name] = Attribute(type: a.type, value: value)
        }
        return env
    }

    /// Integers and dates: exclusive bounds become the next whole value, closed.
    private static func discrete(_ i: Interval, _ type: ValueType) -> Interval {
        guard type == .integer || type == .date else { return i }
        var r = i
        if r.lo.isFinite { r.lo = r.loIn ? r.lo.rounded(.up) : (r.lo.rounded(.down) + 1); r.loIn = true }
        if r.hi.isFinite { r.hi = r.hiIn ? r.hi.rounded(.down) : (r.hi.rounded(.up) - 1); r.hiIn = true }
        return r
    }

    // MARK: - Values

    static func value(_ s: ExpressionSyntax, _ env: Env) -> Abstract {
        switch s.kind {
        case .number(let v): return .interval(.point(v))
        case .string(let t): return .strings([t])
        case .attribute(let name): return env[name]?.value ?? .unknown
        case .negate(let inner):
            guard case .interval(let i) = value(inner, env) else { return .unknown }
            return .interval(Interval(lo: -i.hi, loIn: i.hiIn, hi: -i.lo, hiIn: i.loIn))
        case .arithmetic(let op, let l, let r) where op == .add || op == .subtract:
            guard case .interval(let x) = value(l, env), case .interval(var y) = value(r, env) else { return .unknown }
            if op == .subtract { y = Interval(lo: -y.hi, loIn: y.hiIn, hi: -y.lo, hiIn: y.loIn) }
            let lo = x.lo + y.lo, hi = x.hi + y.hi
            guard !lo.isNaN, !hi.isNaN else { return .unknown }
            return .interval(Interval(lo: lo, loIn: x.loIn && y.loIn, hi: hi, hiIn: x.hiIn && y.hiIn))
        case .call(let name, let args) where (name == "date" || name == "datetime") && args.count == 1:
            guard case .string(let text) = args[0].kind else { return .unknown }
            let bytes = Array(text.utf8)
            if name == "date", let d = bytes.withUnsafeBufferPointer({ ByteParsers.date($0) }) { return .interval(.point(Double(d))) }
            if name == "datetime", let t = bytes.withUnsafeBufferPointer({ ExactInstant(text: $0) }) {
                // A fraction lies within the second.
                let s = Double(t.seconds)
                return .interval(t.fraction.isEmpty ? .point(s) : Interval(lo: s, loIn: true, hi: s + 1, hiIn: true))
            }
            return .unknown
        default:
            return .unknown
        }
    }

    // MARK: - Truth

    static func truth(_ s: ExpressionSyntax, _ env: Env) -> Truth {
        if env.values.contains(where: {
            switch $0.value {
            case .interval(let i): return i.isEmpty
            case .strings(let s): return s.isEmpty
            case .unknown: return false
            }
        }) {
            return Truth(canTrue: false, canFalse: false)
        }
        switch s.kind {
        case .boolean(let b): return Truth(canTrue: b, canFalse: !b)
        case .not(let inner):
            let t = truth(inner, env)
            return Truth(canTrue: t.canFalse, canFalse: t.canTrue)
        case .logical(.and, let l, let r):
            let tl = truth(l, env)
            return Truth(canTrue: tl.canTrue && truth(r, refine(l, true, env)).canTrue,
                         canFalse: tl.canFalse || truth(r, env).canFalse)
        case .logical(.or, let l, let r):
            let tl = truth(l, env)
            return Truth(canTrue: tl.canTrue || truth(r, env).canTrue,
                         canFalse: tl.canFalse && truth(r, refine(l, false, env)).canFalse)
        case .comparison(let op, let l, let r):
            return compare(op, value(l, env), value(r, env))
        case .between(let x, let lo, let hi, let negated):
            let ge = compare(.greaterEqual, value(x, env), value(lo, env))
            let le = compare(.lessEqual, value(x, env), value(hi, env))
            let t = Truth(canTrue: ge.canTrue && truth(.init(kind: .comparison(.lessEqual, x, hi), offset: 0, start: 0),
                                                       refine(.init(kind: .comparison(.greaterEqual, x, lo), offset: 0, start: 0), true, env)).canTrue,
                          canFalse: ge.canFalse || le.canFalse)
            return negated ? Truth(canTrue: t.canFalse, canFalse: t.canTrue) : t
        case .membership(let x, let items, let negated):
            var t = Truth(canTrue: false, canFalse: true)
            let v = value(x, env)
            for item in items {
                let eq = compare(.equal, v, value(item, env))
                t.canTrue = t.canTrue || eq.canTrue
            }
            if case .strings(let set) = v {
                let listed = Set(items.compactMap { if case .string(let s) = $0.kind { return s }; return nil })
                t.canFalse = !set.isSubset(of: listed) || listed.count < items.count
            }
            return negated ? Truth(canTrue: t.canFalse, canFalse: t.canTrue) : t
        default:
            return Truth(canTrue: true, canFalse: true)
        }
    }

    static func compare(_ op: ComparisonOperator, _ a: Abstract, _ b: Abstract) -> Truth {
        switch (a, b) {
        case (.interval(let x), .interval(let y)):
            let less = x.lo < y.hi
            let greater = y.lo < x.hi
            let i = x.intersect(y)
            let equal = !i.isEmpty
            let alwaysEqual = x.isPoint && y.isPoint && x.lo == y.lo
            switch op {
            case .less: return Truth(canTrue: less, canFalse: equal || greater)
            case .lessEqual: return Truth(canTrue: less || equal, canFalse: greater)
            case .greater: return Truth(canTrue: greater, canFalse: equal || less)
            case .greaterEqual: return Truth(canTrue: greater || equal, canFalse: less)
            case .equal: return Truth(canTrue: equal, canFalse: !alwaysEqual)
            case .notEqual: return Truth(canTrue: !alwaysEqual, canFalse: equal)
            }
        case (.strings(let x), .strings(let y)) where op == .equal || op == .notEqual:
            let equal = !x.isDisjoint(with: y)
            let alwaysEqual = x.count == 1 && x == y
            return op == .equal ? Truth(canTrue: equal, canFalse: !alwaysEqual) : Truth(canTrue: !alwaysEqual, canFalse: equal)
        default:
            return Truth(canTrue: true, canFalse: true)
        }
    }

    // MARK: - Refinement

    /// The environment narrowed to the values for which `s` is `outcome` (or left as it is
    /// where the expression says nothing simple about one attribute).
    static func refine(_ s: ExpressionSyntax, _ outcome: Bool, _ env: Env) -> Env {
        switch s.kind {
        case .not(let inner): return refine(inner, !outcome, env)
        case .logical(.and, let l, let r) where outcome: return refine(r, true, refine(l, true, env))
        case .logical(.or, let l, let r) where !outcome: return refine(r, false, refine(l, false, env))
        case .between(let x, let lo, let hi, let negated) where outcome != negated:
            let ge = ExpressionSyntax(kind: .comparison(.greaterEqual, x, lo), offset: 0, start: 0)
            let le = ExpressionSyntax(kind: .comparison(.lessEqual, x, hi), offset: 0, start: 0)
            return refine(le, true, refine(ge, true, env))
        case .comparison(var op, let l, let r):
            if !outcome { op = negation(op) }
            if case .attribute(let name) = l.kind, case .interval(let c) = value(r, env), c.isPoint {
                return narrow(name, op, c.lo, env)
            }
            if case .attribute(let name) = r.kind, case .interval(let c) = value(l, env), c.isPoint {
                return narrow(name, mirror(op), c.lo, env)
            }
            if case .attribute(let name) = l.kind, case .strings(let c) = value(r, env), c.count == 1,
               case .strings(let set)? = env[name]?.value {
                var e = env
                if op == .equal { e[name]?.value = .strings(set.intersection(c)) }
                if op == .notEqual { e[name]?.value = .strings(set.subtracting(c)) }
                return e
            }
            return env
        default:
            return env
        }
    }

    private static func narrow(_ name: String, _ op: ComparisonOperator, _ c: Double, _ env: Env) -> Env {
        guard let attr = env[name], case .interval(let i) = attr.value else { return env }
        let limit: Interval
        switch op {
        case .less: limit = Interval(lo: -.infinity, loIn: false, hi: c, hiIn: false)
        case .lessEqual: limit = Interval(lo: -.infinity, loIn: false, hi: c, hiIn: true)
        case .greater: limit = Interval(lo: c, loIn: false, hi: .infinity, hiIn: false)
        case .greaterEqual: limit = Interval(lo: c, loIn: true, hi: .infinity, hiIn: false)
        case .equal: limit = .point(c)
        case .notEqual: return env
        }
        var e = env
        e[name]?.value = .interval(discrete(i.intersect(limit), attr.type))
        return e
    }

    private static func negation(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .less: return .greaterEqual
        case .lessEqual: return .greater
        case .greater: return .lessEqual
        case .greaterEqual: return .less
        case .equal: return .notEqual
        case .notEqual: return .equal
        }
    }

    private static func mirror(_ op: ComparisonOperator) -> ComparisonOperator {
        switch op {
        case .less: return .greater
        case .lessEqual: return .greaterEqual
        case .greater: return .less
        case .greaterEqual: return .lessEqual
        case .equal, .notEqual: return op
        }
    }
}
