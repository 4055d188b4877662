/// Checks of a text value that a pushed-down entity's SQL engine cannot express exactly (a
/// pattern with an escape such as `\x41` or a `(?:…)` group, a compound constraint such as
/// `anyOf:`, a Swift attribute validator): their column is read alone, their values are
/// checked in the process, and the engine is then told which values fail (``PushdownLowering/unsettled(_:dialect:)``).
extension AuditEngine {
    /// Reads only the attributes of `gaps` from the entity's table (a second reader of the same
    /// rows) and checks their valid values with those checks: per attribute, its distinct
    /// values that fail one of them, and the records read. Else why not: the reader cannot read
    /// the columns alone, or the failing values are too many (or not text every engine writes
    /// as a literal) to send back in a query; the rules then run in the process as before.
    /// - Parameter hooks: The entity's Swift validators (a gap's ``Check/Test/hook(_:)`` indexes them).
    func failingValues(_ plan: AuditPlan, _ ei: Int, _ gaps: [Int: [Check.Test]], hooks: EntityHooks) throws
        -> Result<(values: [Int: Set<[UInt8]>], records: Int), Unsettled> {
        let entity = plan.entities[ei]
        let names = gaps.keys.sorted().map { "'\(entity.attributes[$0].name)'" }.joined(separator: ", ")
        let opened = try open(plan, ei)
        guard let reader = opened.reader as? any PushdownReader, reader.pushdownUnavailable == nil,
              try reader.readOnly(Set(gaps.keys.map { entity.attributes[$0].name })) else {
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
        return .success((failing, records))
    }

    /// Why the failing values of a pattern were not found first (``failingValues(_:_:_:)``).
    struct Unsettled: Error {
        var reason: String
    }
}
