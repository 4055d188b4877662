/// Checks that a pushed-down entity's SQL engine cannot express exactly, run first in a read
/// of only the columns they need: checks of a text value (a pattern with an escape such as
/// `\x41` or a `(?:…)` group, a compound constraint such as `anyOf:`, a Swift attribute
/// validator), whose failing values the engine is then told (``PushdownLowering/unsettled(_:dialect:)``),
/// and checks that only a record's verdict surely passes (a Swift record validator, an expression
/// the engine cannot compute), whose failing records it is told by key (``PushdownLowering/byKey``).
extension AuditEngine {
    /// What the read of the columns alone found: per attribute of the gaps, its distinct valid
    /// values that fail one of its checks; the keys of the records that fail a check asked
    /// by key (distinct, ascending; nil when none was asked); and the records read.
    struct Settled {
        var values: [Int: Set<[UInt8]>]
        var keys: [Int64]?
        var records: Int
    }

    /// Reads only the attributes of `gaps` (and, with `byKey`, the key and the attributes its
    /// checks read) from the entity's table (a second reader of the same rows) and runs those
    /// checks. Else why not: the reader cannot read the columns alone, or the failing values or
    /// keys are too many (or not text every engine writes as a literal) to send back in a
    /// query; the rules then run in the process as before.
    /// - Parameters:
    ///   - main: The entity as the audit binds it, with its Swift validators (a gap's
    ///     ``Check/Test/hook(_:)`` indexes them).
    ///   - byKey: The integer key attribute that identifies records, and the checks (indexes
    ///     into `main`'s) whose failing records it lists.
    ///   - maxKeys: The most failing keys the dialect takes.
    func failingValues(_ plan: AuditPlan, _ ei: Int, _ gaps: [Int: [Check.Test]], bound main: BoundEntity,
                       byKey: (key: Int, checks: [Int])?, maxKeys: Int) throws -> Result<Settled, Unsettled> {
        let entity = plan.entities[ei]
        let hooks = main.hooks
        var fields = Set(gaps.keys.map { entity.attributes[$0].name })
        if let byKey {
            fields.insert(entity.attributes[byKey.key].name)
            fields.formUnion(PushdownLowering.fields(of: byKey.checks, main))
        }
        let names = fields.sorted().map { "'\($0)'" }.joined(separator: ", ")
        let opened = try open(plan, ei)
        guard let reader = opened.reader as? any PushdownReader, reader.pushdownUnavailable == nil,
              try reader.readOnly(fields) else {
            return .failure(Unsettled(reason: "the reader cannot read \(names) alone to check its values first"))
        }
        var bound = try keysBinding(plan, ei, opened)
        // The Swift attribute validators among the gaps, run as the engine runs them; per validator, its attribute.
        var validated = [Int]()
        for (a, tests) in gaps {
            for case .hook(let i) in tests {
                bound.hooks.attributeValidators.append(hooks.attributeValidators[i])
                validated.append(a)
            }
        }
        // The checks asked by key run as the audit runs them, on the entity with all its validators.
        let evaluator = try byKey.map { _ in try keysBinding(plan, ei, opened, hooks: hooks) }
        let asked = Set((byKey?.checks ?? []).map(Int32.init))
        var keys: Set<Int64>? = byKey.map { _ in [] }
        var failing = [Int: Set<[UInt8]>]()
        var bytes = 0
        var records = 0
        while let chunk = try reader.nextChunk(maxRecords: options.chunkSize) {
            records += chunk.count
            var excluded = [Bool](repeating: false, count: chunk.count)
            for issue in chunk.issues where issue.excludesRecord { excluded[issue.row] = true }
            let columns = ChunkColumns(bound, chunk, excluded: excluded, wide: [])
            var hookFailures = [Int: Set<Int>]()       // attribute → rows
            for v in bound.hooks.evaluate(chunk, layout: bound.layout, excluded: excluded, typed: columns.hookColumns()) {
                hookFailures[validated[v.rule], default: []].insert(v.row)
            }
            var failingRecords = Set<Int>()
            if let evaluator {
                for hit in ChunkEvaluator.evaluate(evaluator, chunk, PassContext()).hits where asked.contains(hit.check) {
                    failingRecords.insert(Int(hit.row))
                }
                // A rule whose `when:` the engine cannot count: every record it selects.
                for ci in byKey?.checks ?? [] {
                    guard case .record(let when?, _) = evaluator.plan.checks[ci].test else { continue }
                    for (r, holds) in ChunkEvaluator.holds(when, columns, excluded).enumerated() where holds { failingRecords.insert(r) }
                }
            }
            if let k = byKey?.key, !failingRecords.isEmpty {
                // A record with an invalid key is sent whatever its verdict (the condition requires a valid key).
                let key = columns.column(k)
                let state = columns.state(k, masking: excluded)
                for r in failingRecords where state[r] == TypedParse.Classified.valid {
                    guard key.ints[r].magnitude < UInt64(Int64.max) else {
                        try? reader.finish()
                        return .failure(Unsettled(reason: "the key of a record that fails it is not an integer SQL compares"))
                    }
                    keys?.insert(key.ints[r])
                }
                if (keys?.count ?? 0) > maxKeys {
                    try? reader.finish()
                    return .failure(Unsettled(reason: "more than \(maxKeys) records fail it: too many keys to send back in a query"))
                }
            }
            for (a, tests) in gaps {
                let attribute = bound.plan.attributes[a]
                let cells = columns.column(a).cells
                let state = columns.state(a, masking: excluded)
                var set = failing.removeValue(forKey: a) ?? []
                chunk.bytes.withUnsafeBufferPointer { buffer in
                    for r in 0 ..< chunk.count where state[r] == TypedParse.Classified.valid {
                        TextAccess.withText(cells[r], chunk, buffer) { text in
                            let fails = tests.contains { test in
                                switch test {
                                case .pattern(let p): return !p.matches(text)
                                case .validator(let v):
                                    let value = ValueAccess.value(cells[r], chunk, split: attribute.split, keySeparator: attribute.keySeparator)
                                    return !v.validate(value).isEmpty
                                case .hook: return hookFailures[a]?.contains(r) == true
                                default: return true
                                }
                            }
                            if fails, set.insert(Array(text)).inserted { bytes += text.count }
                        }
                    }
                }
                guard set.count <= PushdownLowering.maxSettledValues, bytes <= PushdownLowering.maxSettledBytes else {
                    try? reader.finish()
                    return .failure(Unsettled(reason: "more than \(PushdownLowering.maxSettledValues) distinct values "
                                                  + "(or \(PushdownLowering.maxSettledBytes >> 20) MiB) of '\(entity.attributes[a].name)' fail it: "
                                                  + "too many to send back in a query"))
                }
                failing[a] = set
            }
        }
        try reader.finish()
        for (a, set) in failing where set.contains(where: { $0.contains(0) || String(validating: $0, as: UTF8.self) == nil }) {
            return .failure(Unsettled(reason: "a value of '\(entity.attributes[a].name)' that fails it holds a NUL byte or is not UTF-8"))
        }
        for a in gaps.keys where failing[a] == nil { failing[a] = [] }
        return .success(Settled(values: failing, keys: keys.map { $0.sorted() }, records: records))
    }

    /// Why the failing values were not found first (``failingValues(_:_:_:hooks:recordKey:maxKeys:)``).
    struct Unsettled: Error {
        var reason: String
    }
}
