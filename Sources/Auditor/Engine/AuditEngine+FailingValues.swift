/// Checks that a pushed-down entity's SQL engine cannot express exactly, run first in a read
/// of only the columns they need: checks of a text value (a pattern with an escape such as
/// `\x41` or a `(?:…)` group, a compound constraint such as `anyOf:`, a Swift attribute
/// validator), whose failing values the engine is then told (``PushdownLowering/unsettled(_:dialect:)``),
/// and Swift record validators, whose failing records it is told by key (``PushdownLowering/recordKey(_:dialect:)``).
extension AuditEngine {
    /// What the read of the columns alone found: per attribute of the gaps, its distinct valid
    /// values that fail one of its checks; the keys of the records a record validator fails
    /// (distinct, ascending; nil when none was asked); and the records read.
    struct Settled {
        var values: [Int: Set<[UInt8]>]
        var keys: [Int64]?
        var records: Int
    }

    /// Reads only the attributes of `gaps` (and, with `recordKey`, the key and the attributes
    /// the record validators read) from the entity's table (a second reader of the same rows)
    /// and runs those checks. Else why not: the reader cannot read the columns alone, or the
    /// failing values or keys are too many (or not text every engine writes as a literal) to
    /// send back in a query; the rules then run in the process as before.
    /// - Parameters:
    ///   - hooks: The entity's Swift validators (a gap's ``Check/Test/hook(_:)`` indexes them).
    ///   - recordKey: The integer key attribute that identifies the records the record validators fail.
    ///   - maxKeys: The most failing keys the dialect takes.
    func failingValues(_ plan: AuditPlan, _ ei: Int, _ gaps: [Int: [Check.Test]], hooks: EntityHooks,
                       recordKey: Int?, maxKeys: Int) throws -> Result<Settled, Unsettled> {
        let entity = plan.entities[ei]
        var fields = Set(gaps.keys.map { entity.attributes[$0].name })
        if let recordKey {
            fields.insert(entity.attributes[recordKey].name)
            for v in hooks.recordValidators { fields.formUnion(v.attributes) }
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
        if recordKey != nil { bound.hooks.recordValidators = hooks.recordValidators }
        var keys: Set<Int64>? = recordKey.map { _ in [] }
        var failing = [Int: Set<[UInt8]>]()
        var bytes = 0
        var records = 0
        while let chunk = try reader.nextChunk(maxRecords: options.chunkSize) {
            records += chunk.count
            var excluded = [Bool](repeating: false, count: chunk.count)
            for issue in chunk.issues where issue.excludesRecord { excluded[issue.row] = true }
            let columns = ChunkColumns(bound, chunk, excluded: excluded, wide: [])
            var hookFailures = [Int: Set<Int>]()       // attribute → rows
            var failingRecords = Set<Int>()
            for v in bound.hooks.evaluate(chunk, layout: bound.layout, excluded: excluded, typed: columns.hookColumns()) {
                if v.rule < validated.count { hookFailures[validated[v.rule], default: []].insert(v.row) } else { failingRecords.insert(v.row) }
            }
            if let k = recordKey, !failingRecords.isEmpty {
                // A record with an invalid key is sent whatever its verdict (the condition requires a valid key).
                let key = columns.column(k)
                let state = columns.state(k, masking: excluded)
                for r in failingRecords where state[r] == TypedParse.Classified.valid {
                    guard key.ints[r].magnitude < UInt64(Int64.max) else {
                        try? reader.finish()
                        return .failure(Unsettled(reason: "the key of a record that a Swift record validator fails is not an integer SQL compares"))
                    }
                    keys?.insert(key.ints[r])
                }
                if (keys?.count ?? 0) > maxKeys {
                    try? reader.finish()
                    return .failure(Unsettled(reason: "Swift record validators fail more than \(maxKeys) records: "
                                                  + "too many keys to send back in a query"))
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
