import Foundation

/// One rule a profile suggests, with its evidence and the number of records of the profiled
/// data that break it (the flagged outliers; 0 for most).
package struct SuggestedRule: Sendable {
    /// The rule id the suggested rules file gives it (`people.age.type`).
    public var id: String
    public var source: String
    public var column: String?
    /// The YAML of the constraint (`type: integer`, `enum: ["US", "GB"]`).
    public var yaml: String
    /// "99.8 % of 1,000,000 values are integers; 2,013 are not".
    public var evidence: String
    /// Records of the profiled data that violate it: the flagged outliers.
    public var outliers: Int
    /// Values flagged (rare enum values, with their counts).
    public var outlierValues: [ProfileValueCount] = []
    /// The `when:` of a record rule, if any.
    public var when: String? = nil
}

/// A candidate foreign key: every valid value of one column is a key of another source.
package struct ForeignKey: Sendable {
    public var source: String
    public var column: String
    public var targetSource: String
    public var targetColumn: String
    /// Distinct values of the referencing column.
    public var distinct: Int
    /// Type-valid values checked, and those that match no key (flagged outliers).
    public var checked: Int
    public var outliers: Int
    public var outlierValues: [ProfileValueCount]
}

/// Turns profiles into suggested rules.
package enum RuleSuggestions {
    /// A column is required when at most this share of its records lack a value.
    public static let requiredShare = 0.001
    /// An enum: at most this many common values.
    public static let enumLimit = 20
    /// A value is a rare enum outlier when it occurs in at most this share of the values.
    public static let rareShare = 0.001
    /// A pattern class is suggested when at least this share of the values belong to it.
    public static let patternShare = 0.99

    /// The entity name of a source (`people` → `People`).
    public static func entityName(_ source: String) -> String {
        let cleaned = source.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" }
        guard let first = cleaned.first else { return "Source" }
        return String(first).uppercased() + String(cleaned.dropFirst())
    }

    /// Candidate foreign keys between profiled sources: at least 99 % of the type-valid values
    /// of a non-key column (exactly counted) are keys of another source's key column of the
    /// same type; the records with the other values are flagged outliers.
    public static func foreignKeys(_ sources: [SourceProfile]) -> [ForeignKey] {
        var out = [ForeignKey]()
        for s in sources {
            for c in s.columns where !c.isKey {
                guard let values = c.values, values.count >= 2, let t = c.inferredType, t != .boolean, t != .string else { continue }
                let typed = values.compactMap { v in typedHash(v.value, t).map { (v, $0) } }
                let total = typed.reduce(0) { $0 + $1.0.count }
                guard total > 0 else { continue }
                var best: ForeignKey?
                var bestCoverage = 0.0
                for target in sources {
                    for k in target.columns where k.isKey && k.inferredType == t && !(target.name == s.name && k.name == c.name) {
                        guard let keys = k.keyHashes else { continue }
                        let dangling = typed.filter { !keys.contains($0.1) }.map(\.0)
                        let outliers = dangling.reduce(0) { $0 + $1.count }
                        guard Double(outliers) <= 0.01 * Double(total), typed.count - dangling.count >= 2 else { continue }
                        // Inclusion alone is weak evidence when the key has many more values
                        // (ages 18…90 are also person ids): ask for a fifth of the keys used, or
                        // a name that points at the target (dept_id → departments).
                        let coverage = Double(typed.count - dangling.count) / Double(max(1, keys.count))
                        guard coverage >= 0.2 || namePoints(c.name, at: target.name), coverage > bestCoverage else { continue }
                        bestCoverage = coverage
                        best = ForeignKey(source: s.name, column: c.name, targetSource: target.name,
                                          targetColumn: k.name, distinct: typed.count, checked: total,
                                          outliers: outliers, outlierValues: dangling)
                    }
                }
                if let best { out.append(best) }
            }
        }
        return out
    }

    /// Whether a column's name starts like the target's (`dept_id`, `department_id` →
    /// `departments`), at least three letters.
    static func namePoints(_ column: String, at target: String) -> Bool {
        let c = Array(column.lowercased()), t = Array(target.lowercased())
        var n = 0
        while n < c.count && n < t.count && c[n] == t[n] && c[n].isLetter { n += 1 }
        return n >= 3
    }

    /// The typed hash a key tracker gives a value of type `t`; nil when it is not of the type
    /// (the audit skips such values for references).
    static func typedHash(_ text: String, _ t: ValueType) -> UInt64? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { p -> UInt64? in
            switch t {
            case .integer:
                let v = ByteParsers.integer(p)
                return v.valid ? Hashing.tagged(1, UInt64(bitPattern: v.value)) : nil
            case .decimal:
                if ByteParsers.integer(p).valid { return Hashing.tagged(1, UInt64(bitPattern: ByteParsers.integer(p).value)) }
                let v = ByteParsers.comparableDecimal(p)
                return v.valid ? Hashing.tagged(2, (v.value == 0 ? 0 : v.value).bitPattern) : nil
            case .date: return ByteParsers.date(p) == nil ? nil : Hashing.bytes(p)
            case .datetime: return ByteParsers.instant(p) == nil ? nil : Hashing.bytes(p)
            case .string, .boolean: return Hashing.bytes(p)
            }
        }
    }

    /// The suggested rules of one source, in column order.
    public static func rules(for s: SourceProfile) -> [SuggestedRule] {
        var out = [SuggestedRule]()
        let prefix = s.name
        for c in s.columns {
            let f = c.facts
            func rule(_ kind: String, _ yaml: String, _ evidence: String, _ outliers: Int, values: [ProfileValueCount] = []) {
                out.append(SuggestedRule(id: "\(prefix).\(c.name).\(kind)", source: s.name, column: c.name, yaml: yaml,
                                         evidence: evidence, outliers: outliers, outlierValues: values))
            }
            if f.records > 0, Double(f.missing) <= requiredShare * Double(f.records) {
                rule("required", "required: true", "\(Evidence.share(f.records - f.missing, f.records)) of \(Evidence.count(f.records)) records have a value" + (f.missing > 0 ? "; \(Evidence.count(f.missing)) do not (flagged outliers)" : ""), f.missing)
            }
            if f.lists + f.maps > 0 {
                // Lists and maps: their counts and keys where every value is one and the rules
                // can declare it (`as: list` in the jsonl or xml block) or the schema does (a Parquet
                // LIST or MAP); a mix gets no rule of a text.
                if s.format == "jsonl" && RulesDraft.isPath(c.name) || s.format == "parquet" || s.format == "xml" { compositeRules(c, rule) }
                continue
            }
            guard let t = c.inferredType else { continue }
            let valid = c.typeValid
            if t != .string {
                rule("type", "type: \(t.rawValue)", "\(Evidence.share(valid, f.present)) of \(Evidence.values(f.present)) \(t.phrase)" + (f.present > valid ? "; \(Evidence.count(f.present - valid)) are not (flagged outliers)" : ""), f.present - valid)
            }
            if c.isKey {
                rule("unique", "unique: true", "all \(Evidence.values(f.present)) present and distinct", 0)
            }
            if (t == .integer || t == .decimal), let tf = f.types[t], tf.count > 0, tf.negative == 0 {
                rule("min", "min: 0", "no value is negative (smallest \(tf.minText))", 0)
            }
            guard t == .string else { continue }
            if let values = c.values, f.present >= 20 {
                let rareLimit = Int(rareShare * Double(f.present))
                let common = values.filter { $0.count > rareLimit }
                let rare = values.filter { $0.count <= rareLimit }
                let rareTotal = rare.reduce(0) { $0 + $1.count }
                if !common.isEmpty, common.count <= enumLimit, common.count * 10 <= f.present,
                   Double(rareTotal) <= 0.01 * Double(f.present) {
                    let list = common.map { Evidence.quoted($0.value) }.joined(separator: ", ")
                    let rareCount = rare.reduce(0) { $0 + $1.count }
                    rule("enum", "enum: [\(list)]", "\(common.count) distinct values cover \(Evidence.share(f.present - rareCount, f.present)) of \(Evidence.count(f.present)) value\(f.present == 1 ? "" : "s")" + (rareCount > 0 ? "; \(Evidence.count(rareCount)) rare values are flagged outliers" : ""), rareCount, values: rare)
                    continue
                }
            }
            for cls in [FormatClass.uuid, .email, .digits, .upperCode, .letters] {
                guard let n = f.classes[cls], let pattern = cls.pattern, f.present > 0,
                      Double(n) >= patternShare * Double(f.present) else { continue }
                rule("pattern", "pattern: \(Evidence.quoted(pattern))", "\(Evidence.share(n, f.present)) of \(Evidence.values(f.present)) \(cls.rawValue)" + (n < f.present ? "; \(Evidence.count(f.present - n)) are not (flagged outliers)" : ""), f.present - n)
                break
            }
            if let lo = f.minLength, let hi = f.maxLength, hi <= 255 {
                // An empty value makes `minLength: 0`, which checks nothing: left out.
                if lo > 0 {
                    rule("minLength", "minLength: \(lo)",
                         "the shortest of \(Evidence.count(f.present)) value\(f.present == 1 ? "" : "s") has \(lo) character\(lo == 1 ? "" : "s")", 0)
                }
                rule("maxLength", "maxLength: \(hi)", lo > 0 ? "the longest has \(hi) character\(hi == 1 ? "" : "s")"
                     : "the longest of \(Evidence.count(f.present)) value\(f.present == 1 ? "" : "s") has \(hi) character\(hi == 1 ? "" : "s")", 0)
            }
        }
        return out
    }

    /// A list column's `minCount` (when every list has an item) and `maxCount`; a map
    /// column's `requiredKeys` (the keys every map has) and `allowedKeys` (every key seen, when
    /// at most ``enumLimit``). The profiled data passes each of them.
    static func compositeRules(_ c: ColumnProfile, _ rule: (String, String, String, Int, [ProfileValueCount]) -> Void) {
        let f = c.facts
        guard let kind = c.composite, let lo = f.minItems, let hi = f.maxItems else { return }
        if kind == "list" {
            if lo >= 1 {
                rule("minCount", "minCount: \(lo)", "each of \(Evidence.count(f.lists)) lists has at least \(lo) item\(lo == 1 ? "" : "s")", 0, [])
            }
            if hi <= 255 { rule("maxCount", "maxCount: \(hi)", "the longest list has \(hi) item\(hi == 1 ? "" : "s")", 0, []) }
            return
        }
        let keys = f.mapKeys.keys.sorted()
        let everywhere = keys.filter { f.mapKeys[$0] == f.maps }
        if !everywhere.isEmpty, !f.mapKeysOverflow {
            rule("requiredKeys", "requiredKeys: [\(everywhere.map(Evidence.quoted).joined(separator: ", "))]",
                 "each of \(Evidence.count(f.maps)) maps has \(everywhere.count == 1 ? "this key" : "these keys")", 0, [])
        }
        if !f.mapKeysOverflow, !keys.isEmpty, keys.count <= enumLimit {
            rule("allowedKeys", "allowedKeys: [\(keys.map(Evidence.quoted).joined(separator: ", "))]",
                 "the \(Evidence.count(f.maps)) maps have \(keys.count) distinct keys, and no other", 0, [])
        }
    }
}

/// Numbers and quoting for evidence comments and YAML.
package enum Evidence {
    /// `1,000,000`.
    public static func count(_ n: Int) -> String { Plural.grouped(n) }

    /// `1 value is`, `1,000 values are`: a count of values and its verb.
    public static func values(_ n: Int) -> String {
        n == 1 ? "1 value is" : "\(count(n)) values are"
    }

    /// `99.8 %` (one decimal; never rounds a partial share up to 100 % or down to 0 %).
    public static func share(_ part: Int, _ whole: Int) -> String {
        guard whole > 0 else { return "0 %" }
        var p = (Double(part) / Double(whole) * 1000).rounded() / 10
        if part < whole && p >= 100 { p = 99.9 }
        if part > 0 && p <= 0 { p = 0.1 }
        return (p == p.rounded() ? String(Int(p)) : String(p)) + " %"
    }

    /// A YAML double-quoted scalar.
    public static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 || u.value == 0x7F || u.value == 0x85 || u.value == 0x2028 || u.value == 0x2029 || u.value == 0xFEFF {
                    out += String(format: "\\u%04X", u.value)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }
}
