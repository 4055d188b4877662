import Foundation

/// One violation found in a chunk: a record (row in the chunk) and a check.
package struct Hit: Sendable, Equatable {
    public var row: Int32
    /// Index into ``EntityPlan/checks``; `-1 - slot` for a structural issue.
    public var check: Int32
}

/// What the parallel phase produces for one chunk; merged in chunk order by ``EntityAccumulator``.
package struct ChunkEvaluation: Sendable {
    public var chunk: RecordChunk
    /// Violations sorted by row, then check.
    public var hits: [Hit]
    /// Rows excluded by a structural issue.
    public var excluded: [Bool]
    public var excludedCount: Int
    /// Keys of the entity's unique rules, by key rule index (checked in order at merge time).
    public var uniqueKeys: [(keyRule: Int, keys: KeyColumn)] = []
    /// Keys other entities reference, by provided-key index (inserted at merge time).
    public var providedKeys: [KeyColumn] = []
    /// Keys of reference rules whose referenced key set was spilled to disk, by key rule
    /// index (their dangling records are asked at merge time, see ``ReferenceSpill``).
    var spilledReferences: [(keyRule: Int, keys: KeyColumn)] = []
    /// For each reference rule: the rows whose key was found and the referenced key's index.
    public var references: [(keyRule: Int, rows: [Int32], parents: [Int32])] = []
    /// For freshness rules: the greatest valid value in the chunk, by table rule index.
    public var maxima: [Int: Double] = [:]
    /// Messages of Swift hook violations, by `row << 32 | check`.
    public var hookMessages: [Int64: String] = [:]
    /// Violations of validator checks (YAML compound constraints), by `row << 32 | check`:
    /// found once, where the value was checked; rendered only for the findings kept.
    var violations: [Int64: [Violation]] = [:]
    /// Per attribute: how many times its column was classified in this chunk (at most once;
    /// tests check it).
    var parses: [Int] = []
    /// By check, one per rule id: records evaluated (in the rule's scope, every input present
    /// and valid) and records skipped (in scope, but excluded or an input missing or invalid).
    public var recordCounts: [Int: (evaluated: Int, skipped: Int)] = [:]
    /// How the rows relate to the previous snapshot, when the pass compares snapshots.
    var changes: RowChanges?
    /// Previous values for `immutable`/`transitions` findings, by `row << 32 | check`.
    var oldValues: [Int64: String] = [:]
    /// For type checks, by check: values of the declared type (see ``RootCause``).
    var typeValid: [Int: Int] = [:]
    /// For each reference rule with a delete rule: the rows whose key is a deleted parent's,
    /// and that parent's dense index in its previous snapshot.
    var deletedReferences: [(keyRule: Int, rows: [Int32], parents: [Int32])] = []
}

/// What the parallel phase may read besides the chunk: the finished key sets of referenced
/// entities. Immutable while a pass runs.
package struct PassContext: Sendable {
    /// Per entity index: its provided key tables.
    public var tables: [Int: [KeyTable]] = [:]
    /// Only extract provided keys (the pre-pass of a self-referencing entity).
    public var keysOnly = false
    /// With ``keysOnly``: also extract the unique rules' keys (the pass that spills them).
    var uniqueKeysToo = false
    /// Whether to extract provided keys (false when a pre-pass already built them).
    public var buildProvidedKeys = true
    /// Snapshot comparison for this entity, when it has a previous snapshot or lifecycle rules.
    var lifecycle: LifecycleContext?
    /// Per entity index: its previous snapshot, complete and with `seen` final (for delete rules).
    var previous: [Int: SnapshotIndex] = [:]

    public init() {}
}

/// Evaluates a bound entity's checks over a chunk, column by column: one classification
/// pass per attribute (missing / wrong type / valid, parsing numbers and dates from bytes
/// once), then one tight loop per check over the valid rows.
package enum ChunkEvaluator {
    /// - Complexity: O(records × checks); allocates only per column, never per value.
    public static func evaluate(_ entity: BoundEntity, _ chunk: RecordChunk,
                                _ context: PassContext = PassContext()) -> ChunkEvaluation {
        let n = chunk.count
        var hits = [Hit]()
        var excluded = [Bool](repeating: false, count: n)
        var excludedCount = 0
        for issue in chunk.issues {
            guard let slot = entity.structuralSlots[issue.ruleID] else { continue }
            hits.append(Hit(row: Int32(issue.row), check: Int32(-1 - slot)))
            if issue.excludesRecord, !excluded[issue.row] {
                excluded[issue.row] = true
                excludedCount += 1
            }
        }
        var typed = [Int: TypedColumn]()
        var lengths = [Int]()          // character counts of the attribute `lengthsOf`
        var lengthsOf = -1
        var result = ChunkEvaluation(chunk: chunk, hits: [], excluded: excluded, excludedCount: excludedCount)
        let lifecycle = context.keysOnly ? nil : context.lifecycle
        let deletePass = lifecycle?.isDeletePass ?? false
        // One classification per attribute, shared by every consumer below. Key attributes are
        // classified on every row no structural issue excludes; the others only on the active
        // rows (unchanged ones under --changed-only are not classified).
        var wide = deletePass ? Set<Int>() : entity.keyAttributes
        if let shape = lifecycle?.keyShape { wide.formUnion(shape.attributes) }
        let columns = ChunkColumns(entity, chunk, excluded: excluded, wide: wide)
        var inactive = excluded
        chunk.bytes.withUnsafeBufferPointer { bytes in
            if let lifecycle {
                let changes = Lifecycle.changes(columns, bytes, lifecycle)
                for r in 0 ..< n where changes.classes[r] & lifecycle.active == 0 { inactive[r] = true }
                result.changes = changes
            }
            columns.inactive = inactive
            for (a, attr) in entity.plan.attributes.enumerated() {
                let needed = entity.keyAttributes.contains(a) && !deletePass
                if context.keysOnly && !needed { continue }
                let typedColumn = columns.column(a)
                let column = typedColumn.cells
                if needed { typed[a] = typedColumn }
                if context.keysOnly { continue }
                // Key attributes' checks see every non-excluded row (as keys do); the others
                // only the active ones.
                let state = needed ? typedColumn.state : columns.state(a, masking: inactive)
                let numbers = typedColumn.numbers
                let ints = typedColumn.ints
                RootCause.countValid(attr, entity, state, into: &result.typeValid)
                if !deletePass {
                    countEvaluated(attr, entity, state, inactive: inactive, excludedCount: excludedCount,
                                   scopes: lifecycle?.scopes, into: &result)
                }
                for ci in attr.checks {
                    let check = entity.plan.checks[ci]
                    let c32 = Int32(ci)
                    switch check.test {
                    case .required:
                        for r in 0 ..< n where state[r] == TypedParse.Classified.missing { hits.append(Hit(row: Int32(r), check: c32)) }
                    case .notNull:
                        for r in 0 ..< n where state[r] == TypedParse.Classified.missing && column[r].isNull {
                            hits.append(Hit(row: Int32(r), check: c32))
                        }
                    case .notAbsent:
                        for r in 0 ..< n where state[r] == TypedParse.Classified.missing && !column[r].isNull {
                            hits.append(Hit(row: Int32(r), check: c32))
                        }
                    case .type:
                        for r in 0 ..< n where state[r] == TypedParse.Classified.invalid { hits.append(Hit(row: Int32(r), check: c32)) }
                    case .lowerBound(let bound, let inclusive):
                        let b = bound.fast
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid {
                            let v = numbers[r]
                            if v < b {
                                hits.append(Hit(row: Int32(r), check: c32))
                            } else if !(v > b) {      // equal, or NaN: only the exact values can tell
                                let c = compareExact(attr.type, column[r], ints[r], bytes, bound)
                                if inclusive ? c < 0 : c <= 0 { hits.append(Hit(row: Int32(r), check: c32)) }
                            }
                        }
                    case .upperBound(let bound, let inclusive):
                        let b = bound.fast
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid {
                            let v = numbers[r]
                            if v > b {
                                hits.append(Hit(row: Int32(r), check: c32))
                            } else if !(v < b) {
                                let c = compareExact(attr.type, column[r], ints[r], bytes, bound)
                                if inclusive ? c > 0 : c >= 0 { hits.append(Hit(row: Int32(r), check: c32)) }
                            }
                        }
                    case .integral:
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid && !isIntegral(numbers[r], column[r], bytes) {
                            hits.append(Hit(row: Int32(r), check: c32))
                        }
                    case .enumNumber(let allowed):
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid && !contains(allowed, numbers[r], column[r], bytes) {
                            hits.append(Hit(row: Int32(r), check: c32))
                        }
                    case .minLength(let min):
                        if lengthsOf != a { lengths = TextAccess.lengths(column, state, chunk, bytes); lengthsOf = a }
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid && lengths[r] < min {
                            hits.append(Hit(row: Int32(r), check: c32))
                        }
                    case .maxLength(let max):
                        if lengthsOf != a { lengths = TextAccess.lengths(column, state, chunk, bytes); lengthsOf = a }
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid && lengths[r] > max {
                            hits.append(Hit(row: Int32(r), check: c32))
                        }
                    case .pattern(let pattern):
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid {
                            if !TextAccess.withText(column[r], chunk, bytes, { pattern.matches($0) }) {
                                hits.append(Hit(row: Int32(r), check: c32))
                            }
                        }
                    case .enumText(let allowed):
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid {
                            let ok = TextAccess.withText(column[r], chunk, bytes) { text in
                                allowed.contains { TextAccess.equal($0, text) }
                            }
                            if !ok { hits.append(Hit(row: Int32(r), check: c32)) }
                        }
                    case .validator(let validator):
                        // Once per value: a failing value keeps its violations for its finding.
                        for r in 0 ..< n where state[r] == TypedParse.Classified.valid {
                            let violations = validator.validate(ValueAccess.value(column[r], chunk, split: attr.split,
                                                                                  keySeparator: attr.keySeparator))
                            if !violations.isEmpty {
                                hits.append(Hit(row: Int32(r), check: c32))
                                result.violations[Int64(r) << 32 | Int64(ci)] = violations
                            }
                        }
                    case .unique, .structural, .keyed, .hook, .record, .immutable, .transitions:
                        break
                    }
                }
                for (t, rule) in entity.plan.tableRules.enumerated() {
                    guard case .freshness(let fa, _) = rule.kind, fa == a else { continue }
                    var best = -Double.infinity
                    for r in 0 ..< n where state[r] == TypedParse.Classified.valid && numbers[r] > best { best = numbers[r] }
                    if best > -Double.infinity { result.maxima[t] = best }
                }
                columns.recycle(typedColumn, of: a)
            }
            if !deletePass { evaluateKeys(entity, chunk, bytes, typed, context, &hits, &result) }
            if let changes = result.changes, case .compare(let index) = lifecycle?.mode {
                Lifecycle.evaluate(entity, chunk, bytes, changes, index, excluded: excluded, &hits, &result.oldValues)
            }
        }
        if !context.keysOnly {
            for (ci, check) in entity.plan.checks.enumerated() {
                guard case .record(let when, let assert) = check.test else { continue }
                var skip = inactive
                var previous: PreviousValues?
                if let changes = result.changes, let scope = lifecycle?.scopes[ci] {
                    for r in 0 ..< n where changes.classes[r] & scope == 0 { skip[r] = true }
                    if case .compare(let index) = lifecycle?.mode { previous = PreviousValues(changes: changes, index: index) }
                }
                evaluateRecordRule(columns, ci, when, assert, skip, previous: previous, &hits, &result)
            }
        }
        if !context.keysOnly, !entity.hooks.isEmpty, !deletePass || entity.hooks.seesDeleted {
            var committed = [Int: CommittedRecord]()
            if let changes = result.changes, case .compare(let index) = lifecycle?.mode, entity.hooks.seesUpdates {
                committed = Lifecycle.committedRecords(entity, changes, index)
            }
            for v in entity.hooks.evaluate(chunk, layout: entity.layout, excluded: inactive, typed: columns.hookColumns(),
                                           classes: result.changes?.classes, committed: committed, deletePass: deletePass) {
                let check = Int32(entity.hookCheckBase + v.rule)
                let key = Int64(v.row) << 32 | Int64(check)
                if let earlier = result.hookMessages[key] {
                    result.hookMessages[key] = earlier + "; " + v.violation.message
                } else {
                    result.hookMessages[key] = v.violation.message
                    hits.append(Hit(row: Int32(v.row), check: check))
                }
            }
        }
        if let changes = result.changes, let scopes = lifecycle?.scopes {
            // Rules apply to the records their scope names (a reader's structural problems
            // are reported once, in the current snapshot).
            hits.removeAll { h in
                h.check < 0 ? deletePass
                    : Int(h.check) < scopes.count && changes.classes[Int(h.row)] & scopes[Int(h.check)] == 0
            }
        }
        hits.sort { $0.row != $1.row ? $0.row < $1.row : $0.check < $1.check }
        result.hits = hits
        result.parses = columns.parses
        return result
    }

    /// The one definition of *evaluated*, for property rules (record rules count the same way
    /// in ``evaluateRecordRule``): a record is evaluated by a rule when it is in the rule's
    /// scope and has every input the rule needs, present and of the declared type. `required`
    /// evaluates every record, `type` every present value, every other constraint every valid
    /// value. A record in scope that is not evaluated (excluded by a structural finding, or
    /// its value missing or invalid) is counted as *skipped* ("not evaluated").
    /// Rules scoped by `on:` (or `--changed-only`) keep the lifecycle's count of the records
    /// of the changes they apply to.
    private static func countEvaluated(_ attr: AttributePlan, _ entity: BoundEntity, _ state: [UInt8], inactive: [Bool],
                                       excludedCount: Int, scopes: [UInt8]?, into result: inout ChunkEvaluation) {
        var active = 0, present = 0, valid = 0
        for r in 0 ..< state.count where !inactive[r] {
            active += 1
            if state[r] == TypedParse.Classified.valid { valid += 1; present += 1 } else if state[r] == TypedParse.Classified.invalid { present += 1 }
        }
        var slots = Set<Int>()
        for ci in attr.checks {
            let check = entity.plan.checks[ci]
            // One count per rule id (constraints sharing an id count a record once).
            guard check.scope == nil, scopes.map({ $0[ci] == LifecycleScope.current.rawValue }) ?? true,
                  slots.insert(check.slot).inserted,
                  !result.recordCounts.keys.contains(where: { entity.plan.checks[$0].slot == check.slot }) else { continue }
            let evaluated = evaluatedRecords(check.test, active: active, present: present, valid: valid)
            result.recordCounts[ci] = (evaluated, active - evaluated + excludedCount)
        }
    }

    /// The records a property check evaluates among `active` ones: presence checks see them
    /// all, the type check the present values, the others the valid ones. The pushed-down
    /// count (`EntityAccumulator.absorbPassing`) uses it too.
    static func evaluatedRecords(_ test: Check.Test, active: Int, present: Int, valid: Int) -> Int {
        switch test {
        case .required, .notNull, .notAbsent: return active
        case .type: return present
        default: return valid
        }
    }

    /// Extracts keys for uniqueness and provided key sets, and checks references against the
    /// referenced entities' finished key sets.
    private static func evaluateKeys(_ entity: BoundEntity, _ chunk: RecordChunk, _ bytes: UnsafeBufferPointer<UInt8>,
                                     _ typed: [Int: TypedColumn], _ context: PassContext,
                                     _ hits: inout [Hit], _ result: inout ChunkEvaluation) {
        if context.buildProvidedKeys || context.keysOnly {
            result.providedKeys = entity.plan.providedKeys.map { KeyEncoder.column($0, typed, chunk, bytes) }
        }
        if context.keysOnly {
            // The pass that spills keys: the unique rules' (uniqueKeysToo), and the references
            // to spilled key sets (in ``PassContext/tables``).
            for (k, rule) in entity.plan.keyRules.enumerated() {
                switch rule.kind {
                case .unique where context.uniqueKeysToo:
                    result.uniqueKeys.append((k, KeyEncoder.column(rule.shape, typed, chunk, bytes)))
                case .reference(let target, let pk, _) where context.tables[target]?[pk].spilled != nil:
                    result.spilledReferences.append((k, KeyEncoder.column(rule.shape, typed, chunk, bytes)))
                default: break
                }
            }
            return
        }
        for (k, rule) in entity.plan.keyRules.enumerated() {
            let keys = KeyEncoder.column(rule.shape, typed, chunk, bytes)
            // Evaluated: the records whose every key attribute is present and valid (see
            // ``countEvaluated``); the others in the chunk are not evaluated.
            let slot = entity.plan.checks[rule.check].slot
            if entity.plan.checks[rule.check].scope == nil,
               !result.recordCounts.keys.contains(where: { entity.plan.checks[$0].slot == slot }) {
                result.recordCounts[rule.check] = (keys.rows.count, chunk.count - keys.rows.count)
            }
            switch rule.kind {
            case .unique:
                result.uniqueKeys.append((k, keys))
            case .reference(let target, let pk, _):
                guard let table = context.tables[target]?[pk] else { continue }
                if table.spilled != nil {
                    result.spilledReferences.append((k, keys))
                    continue
                }
                var rows = [Int32]()
                var parents = [Int32]()
                // Delete rules: a dangling key that was a parent deleted since the previous snapshot.
                let previous = context.previous[target]
                var deletedRows = [Int32]()
                var deletedParents = [Int32]()
                keys.forEach { row, key in
                    if let p = table.index(of: key) {
                        rows.append(row)
                        parents.append(Int32(p))
                    } else {
                        hits.append(Hit(row: row, check: Int32(rule.check)))
                        if let previous, let p = previous.table.index(of: key), previous.isDeleted(p) {
                            deletedRows.append(row)
                            deletedParents.append(Int32(p))
                            if let d = entity.plan.childDeleteChecks[k] { hits.append(Hit(row: row, check: Int32(d.check))) }
                        }
                    }
                }
                result.references.append((k, rows, parents))
                if previous != nil {
                    result.deletedReferences.append((k, deletedRows, deletedParents))
                    if let d = entity.plan.childDeleteChecks[k] { result.recordCounts[d.check] = (keys.rows.count, 0) }
                }
            }
        }
    }
}

/// Text views of cells for string checks: `.text` cells directly, typed cells through their
/// canonical text (rare: an integer in a text column of a database).
enum TextAccess {
    @inline(__always)
    static func withText<R>(_ cell: Cell, _ chunk: RecordChunk, _ bytes: UnsafeBufferPointer<UInt8>,
                            _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if cell.tag == .text || cell.tag == .blob {
            return body(UnsafeBufferPointer(rebasing: bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)]))
        }
        let s = Array((chunk.string(cell) ?? "").utf8)
        return s.withUnsafeBufferPointer(body)
    }

    @inline(__always)
    static func length(_ cell: Cell, _ chunk: RecordChunk, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        withText(cell, chunk, bytes) { ByteParsers.scalarCount($0) }
    }

    /// Character counts of the valid rows of a column (0 for the others).
    static func lengths(_ column: [Cell], _ state: [UInt8], _ chunk: RecordChunk,
                        _ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var out = [Int](repeating: 0, count: column.count)
        for r in 0 ..< column.count where state[r] == TypedParse.Classified.valid {
            out[r] = length(column[r], chunk, bytes)
        }
        return out
    }

    /// Byte equality without generic iteration.
    @inline(__always)
    static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { p in
            guard let x = p.baseAddress, let y = b.baseAddress else { return a.isEmpty }
            return memcmp(x, y, a.count) == 0
        }
    }
}

/// Values of cells for validator checks, with `split:` (and `keySeparator:`) applied.
enum ValueAccess {
    /// - Parameters:
    ///   - split: Makes the text a list of the items it separates.
    ///   - keySeparator: With `split`, makes it a map: each non-empty item is a key, the
    ///     separator and a value (an item without the separator is a key whose value is null).
    static func value(_ cell: Cell, _ chunk: RecordChunk, split: String?, keySeparator: String? = nil) -> Value {
        let v = Value(cell: cell, in: chunk)
        guard let split, case .string(let text) = v else { return v }
        let items = text.components(separatedBy: split)
        guard let keySeparator else { return .list(items.map { .string($0) }) }
        var entries = [(String, Value)]()
        for item in items where !item.isEmpty {
            if let at = item.range(of: keySeparator) {
                entries.append((String(item[..<at.lowerBound]), .string(String(item[at.upperBound...]))))
            } else {
                entries.append((item, .null))
            }
        }
        return .map(ValueMap(entries))
    }
}
