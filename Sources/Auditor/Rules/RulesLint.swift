/// A finding of `auditor check` about the rules file itself: located, with a severity.
package struct LintDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// `error` makes the rules file invalid (exit 78); `warning` is printed and changes nothing.
    public enum Level: String, Sendable { case error, warning }

    public var level: Level
    public var diagnostic: Diagnostic

    public init(_ level: Level, _ diagnostic: Diagnostic) {
        self.level = level
        self.diagnostic = diagnostic
    }

    /// `rules.yml:14:17: warning: message` (errors keep the plain `rules.yml:14:17: message`).
    public var description: String {
        level == .warning ? "\(diagnostic.mark): warning: \(diagnostic.message)" : diagnostic.description
    }
}

/// Finds contradictions in a rules file: constraints that no value can satisfy, enum values
/// that fail their own attribute, record rules that never or always hold, references to keys
/// that are not unique, sources that no entity reads.
///
/// Errors are part of ``RuleCompiler/compile(_:catalog:now:)`` (a contradiction makes the file
/// invalid for `run` as well as `check`); warnings come from ``warnings(_:)``.
package enum RulesLint {
    /// Every contradiction in the attributes' constraints, as errors.
    static func constraintErrors(_ spec: RulesSpec) -> [Diagnostic] {
        var d = [Diagnostic]()
        for e in spec.entities {
            for a in e.attributes { attributeErrors(a, into: &d) }
            for rel in e.relationships {
                if let lo = rel.minCount, let hi = rel.maxCount, lo.value > hi.value {
                    d.append(Diagnostic(mark: rel.mark, message: "relationship '\(rel.name)' has minCount \(lo.value) greater than maxCount \(hi.value); no record can satisfy both"))
                }
            }
        }
        return d
    }

    /// The warnings of a rules file that compiled: record rules that always hold or never
    /// apply, references to keys not declared unique, sources no entity reads.
    /// - Parameter spec: The parsed rules file.
    /// - Returns: Warnings in file order.
    public static func warnings(_ spec: RulesSpec) -> [Diagnostic] {
        var w = [Diagnostic]()
        let used = Set(spec.entities.map(\.source))
        for s in spec.sources where !used.contains(s.name) {
            w.append(Diagnostic(mark: s.mark, message: "source '\(s.name)' is not read by any entity; remove it or give an entity 'source: \(s.name)'"))
        }
        let byName = Dictionary(spec.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for e in spec.entities {
            for rel in e.relationships {
                guard let t = rel.references, let target = byName[t.entity] else { continue }
                if !isUnique(t.attributes, in: target) {
                    let what = t.attributes.count == 1 ? "'\(t.entity).\(t.attributes[0])'" : "'\(t.entity).(\(t.attributes.joined(separator: ", ")))'"
                    let fix = t.attributes.count == 1 ? "unique: true on \(t.attributes[0])" : "unique: [\(t.attributes.joined(separator: ", "))] on \(t.entity)"
                    w.append(Diagnostic(mark: t.mark, message: "relationship '\(rel.name)' references \(what), which is not declared unique, so a reference may match several records; declare \(fix)"))
                }
            }
            w += RecordRuleIntervals.warnings(e)
            // A fractional bound on an integer is exact (`exclusiveMin: 41.5` means 42 and up),
            // so it is a warning, not an error: it is not a value of the type.
            for a in e.attributes where a.type == .integer {
                for c in a.constraints where [.min, .max, .exclusiveMin, .exclusiveMax].contains(c.kind) {
                    guard let text = c.value.scalar, !isIntegerText(text), ExactDecimal(text) != nil else { continue }
                    let up = c.kind == .min || c.kind == .exclusiveMin
                    let whole = suggestInteger(text, up: up, exclusive: c.kind == .exclusiveMin || c.kind == .exclusiveMax)
                    w.append(c.value.error("\(c.kind.rawValue) \(text) is not a valid value of '\(a.name)', which is an integer; write \(up ? "min" : "max") \(whole), which means the same"))
                }
            }
        }
        return w.sorted { ($0.mark.line, $0.mark.column) < ($1.mark.line, $1.mark.column) }
    }

    /// Whether the attributes are declared unique on the entity (`unique: true` on the one
    /// attribute, or a composite `unique:` key made of exactly these attributes).
    static func isUnique(_ attributes: [String], in e: EntitySpec) -> Bool {
        if attributes.count == 1, let a = e.attributes.first(where: { $0.name == attributes[0] }),
           a.constraints.contains(where: { $0.kind == .unique }) { return true }
        return e.uniqueKeys.contains { Set($0.attributes) == Set(attributes) }
    }

    // MARK: - One attribute

    private struct Bound {
        var value: OrderedBound
        var inclusive: Bool
        var text: String
        var kind: ConstraintKind
        var mark: ConfigMark
    }

    static func attributeErrors(_ a: AttributeSpec, into d: inout [Diagnostic]) {
        var lower: [Bound] = [], upper: [Bound] = []
        var minLength: (Int, ConstraintSpec)?, maxLength: (Int, ConstraintSpec)?
        var minCount: (Int, ConstraintSpec)?, maxCount: (Int, ConstraintSpec)?
        for c in a.constraints {
            switch c.kind {
            case .min, .max, .exclusiveMin, .exclusiveMax:
                guard a.type.isOrdered, let text = c.value.scalar,
                      let b = try? RuleCompiler.orderedConstant(c.value, type: a.type, what: c.kind.rawValue) else { continue }
                let bound = Bound(value: b, inclusive: c.kind == .min || c.kind == .max, text: text, kind: c.kind, mark: c.mark)
                if c.kind == .min || c.kind == .exclusiveMin { lower.append(bound) } else { upper.append(bound) }
            case .minLength: if let n = try? c.value.int("minLength") { minLength = (n, c) }
            case .maxLength: if let n = try? c.value.int("maxLength") { maxLength = (n, c) }
            case .minCount: if let n = try? c.value.int("minCount") { minCount = (n, c) }
            case .maxCount: if let n = try? c.value.int("maxCount") { maxCount = (n, c) }
            default: break
            }
        }
        for lo in lower {
            for hi in upper where leavesNoValue(lo, hi, type: a.type) {
                d.append(Diagnostic(mark: hi.mark, message: "'\(a.name)' has \(lo.kind.rawValue) \(lo.text) and \(hi.kind.rawValue) \(hi.text), which leave no value; no record can satisfy both"))
            }
        }
        if let (lo, _) = minLength, let (hi, c) = maxLength, lo > hi {
            d.append(Diagnostic(mark: c.mark, message: "'\(a.name)' has minLength \(lo) greater than maxLength \(hi); no value can satisfy both"))
        }
        if let (lo, _) = minCount, let (hi, c) = maxCount, lo > hi {
            d.append(Diagnostic(mark: c.mark, message: "'\(a.name)' has minCount \(lo) greater than maxCount \(hi); no list can satisfy both"))
        }
        keysErrors(a, into: &d)
        enumErrors(a, lower: lower, upper: upper, minLength: minLength?.0, maxLength: maxLength?.0, into: &d)
    }

    /// `requiredKeys` that `allowedKeys` forbids.
    private static func keysErrors(_ a: AttributeSpec, into d: inout [Diagnostic]) {
        guard let req = a.constraints.first(where: { $0.kind == .requiredKeys }),
              let allowed = a.constraints.first(where: { $0.kind == .allowedKeys }) else { return }
        let allowedNames = Set(allowed.value.sequenceOrSingle().compactMap(\.scalar))
        for item in req.value.sequenceOrSingle() {
            guard let k = item.scalar, !allowedNames.contains(k) else { continue }
            d.append(item.error("required key '\(k)' of '\(a.name)' is not in its allowedKeys, so no map can satisfy both; add it to allowedKeys or remove it"))
        }
    }

    /// Enum values that fail the attribute's own type, bounds, lengths or pattern.
    private static func enumErrors(_ a: AttributeSpec, lower: [Bound], upper: [Bound], minLength: Int?, maxLength: Int?,
                                   into d: inout [Diagnostic]) {
        guard a.split == nil, let en = a.constraints.first(where: { $0.kind == .enum }),
              case .sequence(let items) = en.value.kind else { return }
        let pattern = a.constraints.first(where: { $0.kind == .pattern }).flatMap { $0.value.scalar }
            .flatMap { try? Pattern($0) }
        for item in items {
            guard let text = item.scalar else { continue }
            // A number the compiler cannot read is its error already.
            if (a.type == .integer || a.type == .decimal) && ExactDecimal(text) == nil { continue }
            if let why = typeProblem(text, a.type) {
                d.append(item.error("enum value '\(text)' of '\(a.name)' is not \(a.type.phrase)\(why); every record with it would fail the type"))
                continue
            }
            if a.type.isOrdered, let v = try? RuleCompiler.orderedConstant(item, type: a.type, what: "enum value") {
                let asBound = Bound(value: v, inclusive: true, text: text, kind: .enum, mark: item.mark)
                for lo in lower where leavesNoValue(lo, asBound, type: a.type) {
                    d.append(item.error("enum value '\(text)' of '\(a.name)' is outside \(lo.kind.rawValue) \(lo.text); remove it or change the bound"))
                }
                for hi in upper where leavesNoValue(asBound, hi, type: a.type) {
                    d.append(item.error("enum value '\(text)' of '\(a.name)' is outside \(hi.kind.rawValue) \(hi.text); remove it or change the bound"))
                }
            }
            let length = text.unicodeScalars.count
            if let minLength, length < minLength {
                d.append(item.error("enum value '\(text)' of '\(a.name)' has \(length) character\(length == 1 ? "" : "s"), fewer than minLength \(minLength)"))
            }
            if let maxLength, length > maxLength {
                d.append(item.error("enum value '\(text)' of '\(a.name)' has \(length) character\(length == 1 ? "" : "s"), more than maxLength \(maxLength)"))
            }
            if let pattern, !pattern.matches(text) {
                d.append(item.error("enum value '\(text)' of '\(a.name)' does not match its pattern \(pattern.source); remove it or widen the pattern"))
            }
        }
    }

    /// Why `text` is not a value of `type` (a suffix for the message), or nil when it is one.
    static func typeProblem(_ text: String, _ type: ValueType) -> String? {
        let bytes = Array(text.utf8)
        switch type {
        case .string: return nil
        case .integer: return isIntegerText(text) ? nil : ""
        case .decimal: return ExactDecimal(text) != nil && bytes.allSatisfy({ $0 == 0x2D || $0 == 0x2E || (0x30...0x39).contains($0) }) ? nil : ""
        case .boolean: return text == "true" || text == "false" ? nil : " (true or false)"
        case .date: return bytes.withUnsafeBufferPointer { ByteParsers.date($0) } == nil ? "" : nil
        case .datetime: return bytes.withUnsafeBufferPointer { ExactInstant(text: $0) } == nil ? "" : nil
        }
    }

    /// `-?[0-9]+`, the integer type's form.
    static func isIntegerText(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        return !digits.isEmpty && digits.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The inclusive whole-number bound equal to a fractional one.
    private static func suggestInteger(_ text: String, up: Bool, exclusive: Bool) -> String {
        guard let v = Double(text), v.isFinite, abs(v) < 9e15 else { return text }
        if exclusive && v == v.rounded() { return String(Int64(up ? v + 1 : v - 1)) }
        return String(Int64(up ? v.rounded(.up) : v.rounded(.down)))
    }

    /// -1, 0, 1 as bound `a` is below, equal to or above `b` (exactly where the bounds are exact).
    static func compare(_ a: OrderedBound, _ b: OrderedBound) -> Int {
        if let x = a.exact, let y = b.exact { return ExactValue.compare(x, y) }
        return a.fast < b.fast ? -1 : a.fast > b.fast ? 1 : 0
    }

    /// Whether no value of the type lies at or above `lo` and at or below `hi` (each bound
    /// inclusive or not). Integers and dates are discrete: `exclusiveMin: 3, exclusiveMax: 4`
    /// leaves no integer.
    private static func leavesNoValue(_ lo: Bound, _ hi: Bound, type: ValueType) -> Bool {
        let c = compare(lo.value, hi.value)
        if c > 0 { return true }
        if c == 0 { return !(lo.inclusive && hi.inclusive) }
        guard !lo.inclusive && !hi.inclusive else { return false }
        switch type {
        case .integer:
            // The only values strictly between two integers a < b exist when b - a > 1.
            guard let a = lo.value.exact, let b = hi.value.exact, case .number(let x) = a, case .number(let y) = b,
                  x.isIntegral, y.isIntegral, let dx = Double(x.description), let dy = Double(y.description) else { return false }
            return dy - dx <= 1
        case .date:
            return hi.value.fast - lo.value.fast <= 1
        default:
            return false
        }
    }
}
