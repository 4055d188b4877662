import Foundation

/// Lowers a bound entity's rules to one SQL condition, `passes`, that is true only where a
/// record surely passes every rule, and to the counts the report needs of those records.
///
/// The database then keeps every record where `passes` is true: one scan evaluates it once
/// per record, counts the records that pass, and sends out only the others, which the same checks as the
/// streaming engine evaluate in the process. Counts, samples, messages and exit status are
/// therefore the streaming engine's by construction; the engine only decides which records
/// surely pass. Conditions are sound, not necessarily tight (see ``SQLDialect``).
///
/// A bound between two integers (`min: 0.5`) or on a date-time is lowered soundly, not tightly:
/// the values beyond the next integer or UTC day surely pass it, and the few between are sent.
/// A rule the dialect cannot express at all (an arithmetic expression the dialect cannot compute
/// exactly, a pattern feature the engine's regular expressions read otherwise, a Swift attribute
/// validator) runs in the process, on the records the database sends: its part of `passes` is
/// only what surely passes it (its attribute is absent, its `when:` is false), so every record
/// where it may fail is sent (``inProcess``). A check of a text value alone (a pattern, a
/// compound constraint, a Swift attribute validator) may instead be settled first: a read of
/// its column alone finds the values that fail it (``unsettled(_:dialect:)``); so may a Swift
/// record validator, by the keys of the records it fails (``recordKey(_:dialect:)``). Where nothing
/// surely passes a rule (a required attribute, a rule without a `when:` the dialect can
/// express), or a feature needs every record in the process (a Swift record validator without such a key,
/// cardinality, freshness, snapshots, keys other entities reference unless a pass that read
/// only them came first, a key the dialect cannot compare), the entity is left to the
/// streaming engine, with the reason.
package struct PushdownLowering {
    /// True where a record surely passes every rule of the entity.
    package var passes: String
    /// What the scan counts among the passing records, in order: per counted attribute,
    /// the records where it is present; per record rule with a `when:`, the records where it
    /// holds; per key rule, the records whose every key attribute is present.
    package var counted: [String]
    /// Attributes whose presence is counted (indexes into the plan's attributes).
    var presentAttributes: [Int]
    /// Record rule checks with a `when:` (their evaluated count is counted).
    var whenChecks: [Int]
    /// Key rules whose evaluated count is counted.
    var keyRules: [Int]
    /// The rules (plan slots) that the dialect cannot express, with the reason: they run in
    /// the process over the records the database sends.
    package var inProcess: [(slot: Int, reason: String)] = []
    /// The checks (indexes into the plan's) that only a record's verdict surely passes (an
    /// expression or a check of a required attribute the dialect cannot express, a Swift
    /// record validator): the records they fail are found first, on a read of only the columns
    /// they need, and sent by key (``recordKey(_:dialect:)``). For a record rule with a
    /// `when:` the dialect cannot express, the records sent are those its `when:` selects, so
    /// that none it evaluates stays in the database.
    package var byKey: [Int] = []

    /// Why an entity cannot be pushed down.
    package struct Refusal: Error, Sendable {
        package var reason: String

        package init(reason: String) {
            self.reason = reason
        }
    }

    /// - Parameter settled: Per attribute of ``unsettled(_:dialect:)``, the distinct valid
    ///   values that fail one of those checks (read first, checked in the process): a value not
    ///   among them surely passes them.
    /// - Throws: ``Refusal`` with the first reason the entity cannot be lowered.
    ///   `failingRecords`: The keys (``recordKey(_:dialect:)``) of the records that fail one of
    ///   ``byKey``'s checks (read first, checked in the process): a record with another key
    ///   surely passes them. Nil: the caller cannot find them (such checks are refused); a
    ///   lowering tried first passes none to learn ``byKey``.
    static func lower(_ entity: BoundEntity, context: PassContext, dialect: any SQLDialect,
                      settled: [Int: Set<[UInt8]>] = [:], failingRecords: [Int64]? = nil) throws(Refusal) -> PushdownLowering {
        let plan = entity.plan
        if !plan.providedKeys.isEmpty, context.buildProvidedKeys {
            throw Refusal(reason: "other entities reference its keys, which are built from every record")
        }
        if !plan.cardinality.isEmpty { throw Refusal(reason: "its relationship counts need every record") }
        if !plan.tableRules.isEmpty { throw Refusal(reason: "its table rules (freshness, columns) need every record") }
        if plan.usesLifecycle || context.lifecycle != nil { throw Refusal(reason: "it is compared with a previous snapshot") }
        let checks = try Self.checks(entity)
        var conditions = [String]()
        // Checks that nothing but their verdict surely passes: run first, on a read of only the
        // columns they need, where the records they fail can be told by key.
        let keyed = failingRecords != nil && recordKey(entity, dialect: dialect) != nil
        var byKey = [Int]()
        for (ci, check) in plan.checks.enumerated() {
            guard case .hook(let i) = check.test, i >= entity.hooks.attributeValidators.count,
                  i < entity.hooks.attributeValidators.count + entity.hooks.recordValidators.count else { continue }
            if check.scope != nil { throw Refusal(reason: "rule '\(plan.rules[check.slot].id)' has an on: scope") }
            guard keyed else { throw Refusal(reason: "Swift record validator '\(plan.rules[check.slot].id)' runs in the process on every record") }
            byKey.append(ci)
        }
        var present = [Int]()
        var inProcess = [(slot: Int, reason: String)]()
        for (a, attribute) in plan.attributes.enumerated() where !checks[a].isEmpty {
            guard let column = dialect.column(attribute.name) else {
                throw Refusal(reason: "'\(attribute.name)' is not a column of the table")
            }
            let valid = dialect.valid(attribute.name, as: attribute.type)
            var holds = valid.map { [$0] } ?? []
            var required = false
            var unexpressed = [(check: Int, slot: Int, reason: String)]()
            for ci in checks[a] {
                let check = plan.checks[ci]
                if check.scope != nil { throw Refusal(reason: "rule '\(plan.rules[check.slot].id)' has an on: scope") }
                switch check.test {
                case .required: required = true
                case .hook where settled[a] != nil:
                    break                  // its failing values (below)
                case .hook:
                    // A missing value passes it (``checks(_:)``), any other may fail.
                    unexpressed.append((ci, check.slot, "Swift validator '\(plan.rules[check.slot].id)' runs in the process"))
                case .type, .keyed, .structural:
                    if valid == nil {
                        unexpressed.append((ci, check.slot, "\(dialect.engine) cannot check the type \(attribute.type) of '\(attribute.name)' exactly"))
                    }
                case .unique: break        // a key rule (below)
                case .pattern(let p) where settled[a] != nil && dialect.matches(attribute.name, p) == nil:
                    break                  // its failing values (below)
                case .validator where settled[a] != nil:
                    break
                default:
                    if valid != nil, let c = lower(check.test, attribute, dialect) {
                        holds.append(c)
                    } else {
                        unexpressed.append((ci, check.slot, "rule '\(plan.rules[check.slot].id)' (\(check.kind)) cannot run in \(dialect.engine) exactly"))
                    }
                }
            }
            if let failing = settled[a], valid != nil {
                holds.append(failing.isEmpty ? "1 = 1" : "\(dialect.bytes(attribute.name)) NOT IN ("
                             + failing.sorted { $0.lexicographicallyPrecedes($1) }
                                 .map { dialect.literal(String(decoding: $0, as: UTF8.self)) }.joined(separator: ", ") + ")")
            }
            if let first = unexpressed.first, required {
                // Only an absent value surely passes them, and this one is required: by key, or not at all.
                guard keyed, valid != nil else { throw Refusal(reason: first.reason) }
                byKey += unexpressed.map(\.check)
                conditions.append("(" + holds.joined(separator: " AND ") + ")")
            } else if !unexpressed.isEmpty {
                conditions.append("(\(column) IS NULL)")
                for u in unexpressed where !inProcess.contains(where: { $0.slot == u.slot }) { inProcess.append((u.slot, u.reason)) }
            } else {
                let all = "(" + holds.joined(separator: " AND ") + ")"
                conditions.append(required ? all : "(\(column) IS NULL OR \(all))")
            }
            present.append(a)
        }
        var whenChecks = [Int]()
        var whenConditions = [String]()
        for (ci, check) in plan.checks.enumerated() {
            guard case .record(let when, let assert) = check.test else { continue }
            if check.scope != nil { throw Refusal(reason: "rule '\(plan.rules[check.slot].id)' has an on: scope") }
            let id = plan.rules[check.slot].id
            let unexpressed = "the expression of rule '\(id)' cannot run in \(dialect.engine) exactly"
            let a = ExpressionLowering(plan: plan, dialect: dialect).condition(assert)
            let w = when.flatMap { ExpressionLowering(plan: plan, dialect: dialect).condition($0) }
            // Neither part expressed, or a `when:` that cannot count the records it selects: by key, or not at all.
            if w == nil, a == nil || when != nil, !keyed { throw Refusal(reason: unexpressed) }
            var inputs = Set(assert.inputs)
            if let when { inputs.formUnion(when.inputs) }
            let valid = try inputs.sorted().map { name throws(Refusal) -> String in
                guard let a = plan.attributes.firstIndex(where: { $0.name == name }),
                      let v = dialect.valid(name, as: plan.attributes[a].type), let column = dialect.column(name)
                else { throw Refusal(reason: "an input of rule '\(id)' cannot be read in \(dialect.engine)") }
                // An attribute with checks of its own is valid wherever it is present and they pass.
                let valid = present.contains(a) ? "\(column) IS NOT NULL" : v
                // A number the expression engine does not hold exactly skips the rule there.
                guard plan.attributes[a].type == .integer || plan.attributes[a].type == .decimal else { return valid }
                guard let exact = dialect.exactNumber(name, plan.attributes[a].type) else {
                    throw Refusal(reason: "an input of rule '\(id)' cannot be read in \(dialect.engine)")
                }
                return "\(valid) AND \(exact)"
            }
            let inputsValid = valid.isEmpty ? "1 = 1" : valid.joined(separator: " AND ")
            if when != nil, w == nil {
                // The records its `when:` selects are sent by key: none of those that stay is evaluated.
                conditions.append("(\(inputsValid))")
                whenChecks.append(ci)
                whenConditions.append("(1 = 0)")
                byKey.append(ci)
            } else if let w, a == nil {
                // Only a record where its `when:` is false surely passes it.
                conditions.append("(\(inputsValid) AND NOT \(w))")
                whenChecks.append(ci)
                whenConditions.append(w)
                inProcess.append((check.slot, unexpressed))
            } else if let w, let a {
                conditions.append("(\(inputsValid) AND (NOT \(w) OR \(a)))")
                whenChecks.append(ci)
                whenConditions.append(w)
            } else if let a {
                conditions.append("(\(inputsValid) AND \(a))")
            } else {
                // Every input valid, so that each passing record is evaluated, as counted.
                conditions.append("(\(inputsValid))")
                byKey.append(ci)
            }
        }
        if !byKey.isEmpty, let failingRecords, let key = recordKey(entity, dialect: dialect),
           let number = dialect.number(key, .integer), let valid = dialect.valid(key, as: .integer) {
            conditions.append(failingRecords.isEmpty ? valid : "(\(valid) AND NOT (\(dialect.isOneOf(number, failingRecords))))")
        }
        var keyRules = [Int]()
        var keyConditions = [String]()
        for (k, rule) in plan.keyRules.enumerated() {
            let fields = rule.shape.attributes.map { plan.attributes[$0].name }
            let columns = fields.compactMap(dialect.column)
            let valid = zip(rule.shape.attributes, fields).compactMap { dialect.valid($1, as: plan.attributes[$0].type) }
            guard columns.count == fields.count, valid.count == fields.count else {
                throw Refusal(reason: "the key of rule '\(plan.rules[plan.checks[rule.check].slot].id)' cannot be read in \(dialect.engine)")
            }
            let anyNull = columns.map { "\($0) IS NULL" }.joined(separator: " OR ")
            switch rule.kind {
            case .unique:
                let typed = zip(rule.shape.attributes, fields).map { (name: $1, type: plan.attributes[$0].type) }
                guard let duplicated = dialect.duplicated(typed, valid: valid) else {
                    throw Refusal(reason: "\(dialect.engine) cannot find duplicate keys exactly")
                }
                conditions.append("(\(anyNull) OR NOT \(duplicated))")
            case .reference(let target, let pk, _):
                // The parent's key set was read first; without it the rule is not evaluated.
                guard let table = context.tables[target]?[pk] else { break }
                if table.spilled != nil {
                    throw Refusal(reason: "the keys that rule '\(plan.rules[plan.checks[rule.check].slot].id)' references outgrew --memory-limit and are on disk")
                }
                guard fields.count == 1, plan.attributes[rule.shape.attributes[0]].type == .integer,
                      table.count <= dialect.maxKeySet else {
                    throw Refusal(reason: "the keys that rule '\(plan.rules[plan.checks[rule.check].slot].id)' references cannot be sent to \(dialect.engine)")
                }
                var keys = [Int64]()
                keys.reserveCapacity(table.count)
                for i in 0 ..< table.count {
                    guard let key = table.integerKey(at: i) else {
                        throw Refusal(reason: "the keys that rule '\(plan.rules[plan.checks[rule.check].slot].id)' references are not integers")
                    }
                    keys.append(key)
                }
                guard let number = dialect.number(fields[0], .integer) else {
                    throw Refusal(reason: "the key of rule '\(plan.rules[plan.checks[rule.check].slot].id)' cannot be read in \(dialect.engine)")
                }
                keys.sort()
                conditions.append("(\(anyNull) OR \(keys.isEmpty ? "1 = 0" : dialect.isOneOf(number, keys)))")
            }
            keyRules.append(k)
            keyConditions.append(columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND "))
        }
        let passes = conditions.isEmpty ? "(1 = 1)" : "(" + conditions.joined(separator: "\n AND ") + ")"
        var counted = [String]()
        for a in present { counted.append("\(dialect.column(plan.attributes[a].name)!) IS NOT NULL") }
        counted += whenConditions
        counted += keyConditions
        return PushdownLowering(passes: passes, counted: counted, presentAttributes: present,
                                whenChecks: whenChecks, keyRules: keyRules, inProcess: inProcess, byKey: byKey)
    }

    /// Per attribute, its checks: the rules file's, then its Swift attribute validators (their
    /// ``Check/Test/hook(_:)`` checks), which pass a missing value.
    /// - Throws: ``Refusal`` for a validator that also validates missing values.
    private static func checks(_ entity: BoundEntity) throws(Refusal) -> [[Int]] {
        var checks = entity.plan.attributes.map(\.checks)
        for (ci, check) in entity.plan.checks.enumerated() {
            guard case .hook(let i) = check.test, i < entity.hooks.attributeValidators.count else { continue }
            let hook = entity.hooks.attributeValidators[i]
            guard let a = check.attribute else {
                throw Refusal(reason: "Swift validator '\(hook.id)' reads '\(hook.attribute)', which is not an attribute")
            }
            if hook.includesMissing {
                throw Refusal(reason: "Swift validator '\(hook.id)' validates missing values too, so every record")
            }
            checks[a].append(ci)
        }
        return checks
    }

    /// The entity's key when it identifies the records that ``byKey``'s checks fail, found by
    /// running them first on a read of only the columns they need: one integer attribute that
    /// the dialect reads exactly. Nil otherwise.
    static func recordKey(_ entity: BoundEntity, dialect: any SQLDialect) -> String? {
        let plan = entity.plan
        guard plan.key.count == 1, let a = plan.attributes.first(where: { $0.name == plan.key[0] }), a.type == .integer,
              dialect.number(a.name, .integer) != nil, dialect.valid(a.name, as: .integer) != nil else { return nil }
        return a.name
    }

    /// The attributes that ``byKey``'s checks read: a property check's attribute, a record
    /// rule's inputs, a record validator's attributes.
    static func fields(of checks: [Int], _ entity: BoundEntity) -> Set<String> {
        var fields = Set<String>()
        for ci in checks {
            let check = entity.plan.checks[ci]
            switch check.test {
            case .record(let when, let assert):
                for name in (when?.inputs ?? []) + assert.inputs { fields.insert(LifecycleInput(name).attribute) }
            case .hook(let i) where i >= entity.hooks.attributeValidators.count:
                fields.formUnion(entity.hooks.recordValidators[i - entity.hooks.attributeValidators.count].attributes)
            default:
                if let a = check.attribute { fields.insert(entity.plan.attributes[a].name) }
            }
        }
        return fields
    }

    /// The string attributes with checks the dialect cannot express but that depend on the
    /// value alone (a pattern it cannot match, a compound constraint), and those checks, where
    /// nothing else keeps the attribute's rules out of the engine: their failing values can be
    /// found by a read of those columns alone, checked in the process (``lower(_:context:dialect:settled:)``).
    static func unsettled(_ entity: BoundEntity, dialect: any SQLDialect) -> [Int: [Check.Test]] {
        var result = [Int: [Check.Test]]()
        guard let checks = try? Self.checks(entity) else { return [:] }
        for (a, attribute) in entity.plan.attributes.enumerated() where attribute.type == .string {
            guard dialect.column(attribute.name) != nil, dialect.valid(attribute.name, as: .string) != nil else { continue }
            var tests = [Check.Test]()
            var otherwise = true
            for ci in checks[a] {
                let test = entity.plan.checks[ci].test
                switch test {
                case .required, .type, .keyed, .structural, .unique: break
                case .pattern(let p) where dialect.matches(attribute.name, p) == nil: tests.append(test)
                case .validator, .hook: tests.append(test)
                default: if lower(test, attribute, dialect) == nil { otherwise = false }
                }
            }
            if otherwise, !tests.isEmpty { result[a] = tests }
        }
        return result
    }

    /// The most distinct failing values of one attribute that ``lower(_:context:dialect:settled:)``
    /// writes into the query, and the most bytes they may take together.
    static let maxSettledValues = 100_000
    static let maxSettledBytes = 8 << 20

    /// Writes `sql` to standard error when `AUDITOR_DEBUG_SQL` is set (readers call it with
    /// the SQL they send).
    package static func trace(_ sql: String) {
        guard ProcessInfo.processInfo.environment["AUDITOR_DEBUG_SQL"] != nil else { return }
        StandardStream.write(sql + "\n", to: STDERR_FILENO)
    }

    /// The condition under which a valid value passes a property check, or nil.
    private static func lower(_ test: Check.Test, _ attribute: AttributePlan, _ d: any SQLDialect) -> String? {
        let name = attribute.name
        guard d.column(name) != nil else { return nil }
        switch (test, attribute.type) {
        case (.minLength(let n), .string): return "\(d.characters(name)) >= \(n)"
        case (.maxLength(let n), .string): return "\(d.characters(name)) <= \(n)"
        case (.pattern(let p), .string): return d.matches(name, p)
        case (.enumText(let values), .string):
            let texts = values.map { d.literal(String(decoding: $0, as: UTF8.self)) }
            guard values.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) else { return nil }
            return texts.isEmpty ? "1 = 0" : "\(d.bytes(name)) IN (\(texts.joined(separator: ", ")))"
        case (.enumNumber(let set), .integer):
            guard let number = d.number(name, .integer) else { return nil }
            var ints = [String]()
            for value in set.exact {
                guard let i = integer(value) else { return nil }
                ints.append(String(i))
            }
            return ints.isEmpty ? "1 = 0" : "\(number) IN (\(ints.sorted().joined(separator: ", ")))"
        case (.lowerBound(let b, let inclusive), .integer), (.lowerBound(let b, let inclusive), .decimal):
            guard let number = d.number(name, attribute.type) else { return nil }
            if let i = integer(b) { return "\(number) \(inclusive ? ">=" : ">") \(i)" }
            // A bound between two integers (`min: 0.5`): the values from the next integer up
            // surely pass; the others are sent and checked in the process.
            return integer(beside: b, above: true).map { "\(number) >= \($0)" }
        case (.upperBound(let b, let inclusive), .integer), (.upperBound(let b, let inclusive), .decimal):
            guard let number = d.number(name, attribute.type) else { return nil }
            if let i = integer(b) { return "\(number) \(inclusive ? "<=" : "<") \(i)" }
            return integer(beside: b, above: false).map { "\(number) <= \($0)" }
        case (.lowerBound(let b, _), .datetime):
            // A date-time on a later UTC day than the bound's is surely after it.
            guard let day = day(of: b), let date = d.dateText(name, .datetime) else { return nil }
            return "\(date) > \(d.dateConstant(day))"
        case (.upperBound(let b, _), .datetime):
            guard let day = day(of: b), let date = d.dateText(name, .datetime) else { return nil }
            return "\(date) < \(d.dateConstant(day))"
        case (.lowerBound(let b, let inclusive), .date):
            guard b.exact == nil, b.fast.rounded() == b.fast, abs(b.fast) < 4_000_000, let date = d.dateText(name, .date) else { return nil }
            return "\(date) \(inclusive ? ">=" : ">") \(d.dateConstant(Int(b.fast)))"
        case (.upperBound(let b, let inclusive), .date):
            guard b.exact == nil, b.fast.rounded() == b.fast, abs(b.fast) < 4_000_000, let date = d.dateText(name, .date) else { return nil }
            return "\(date) \(inclusive ? "<=" : "<") \(d.dateConstant(Int(b.fast)))"
        case (.integral, .integer): return "1 = 1"
        default: return nil
        }
    }

    /// An exact integer bound that every engine compares exactly (below 2^53).
    private static func integer(_ bound: OrderedBound) -> Int64? {
        guard bound.fast.rounded() == bound.fast, abs(bound.fast) < 9_007_199_254_740_992 else { return nil }
        let i = Int64(bound.fast)
        if let exact = bound.exact {
            guard case .number(let d) = exact, ExactDecimal.compare(d, ExactDecimal(i)) == 0 else { return nil }
        }
        return i
    }

    /// The nearest integer strictly above (or below) a bound that is not an integer, when every
    /// engine compares it exactly (below 2^53 in magnitude).
    private static func integer(beside bound: OrderedBound, above: Bool) -> Int64? {
        guard bound.fast.isFinite, abs(bound.fast) < 9_007_199_254_740_990 else { return nil }
        // The double rounds the exact bound, so step once more where it rounded across the integer.
        var i = Int64(above ? bound.fast.rounded(.up) : bound.fast.rounded(.down))
        func beyond(_ i: Int64) -> Bool {
            guard let exact = bound.exact else { return above ? Double(i) > bound.fast : Double(i) < bound.fast }
            guard case .number(let d) = exact else { return false }
            return ExactDecimal.compare(ExactDecimal(i), d) == (above ? 1 : -1)
        }
        if !beyond(i) { i += above ? 1 : -1 }
        return beyond(i) ? i : nil
    }

    /// The UTC day (days since 1970-01-01) of a date-time bound, within years 0001–9999.
    private static func day(of bound: OrderedBound) -> Int? {
        guard bound.fast.isFinite, bound.fast.rounded(.down) == bound.fast else { return nil }
        let day = (bound.fast / 86_400).rounded(.down)
        guard day >= -719_162, day <= 2_932_896 else { return nil }
        return Int(day)
    }

    private static func integer(_ value: ExactDecimal) -> Int64? {
        guard value.isIntegral, let d = value.shortDouble, d.rounded() == d, abs(d) < 9_007_199_254_740_992,
              ExactDecimal.compare(value, ExactDecimal(Int64(d))) == 0 else { return nil }
        return Int64(d)
    }
}
