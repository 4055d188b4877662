/// Record rules (`when:` / `assert:` expressions) over a chunk, their inputs read from the
/// chunk's typed columns.
extension ChunkEvaluator {
    /// Evaluates a rule over whole records: `when` selects the records, `assert` must hold.
    /// A record whose inputs are missing or invalid is skipped, and counted as such.
    /// Inputs come from the chunk's typed columns (``ChunkColumns``), not parsed again.
    static func evaluateRecordRule(_ columns: ChunkColumns, _ ci: Int,
                                   _ when: CompiledExpression?, _ assert: CompiledExpression,
                                   _ excluded: [Bool], _ hits: inout [Hit], _ result: inout ChunkEvaluation) {
        let entity = columns.entity
        let chunk = columns.chunk
        guard entity.columns(of: assert) != nil, when.map({ entity.columns(of: $0) != nil }) ?? true else {
            return      // an input column the source lacks (tolerated by a columns: rule)
        }
        var skip = excluded
        var skipped = 0
        if let when {
            for (r, o) in when.evaluate(chunk, skip: excluded, load: loader(when, columns)).enumerated() where !excluded[r] {
                if o == .skipped { skipped += 1 }
                if o != .true { skip[r] = true }
            }
        }
        var evaluated = 0
        for (r, o) in assert.evaluate(chunk, skip: skip, load: loader(assert, columns)).enumerated() where !skip[r] {
            switch o {
            case .false:
                evaluated += 1
                hits.append(Hit(row: Int32(r), check: Int32(ci)))
            case .true: evaluated += 1
            case .skipped, .unknown: skipped += 1
            }
        }
        // Records a structural finding excluded are not evaluated either (as for property rules).
        result.recordCounts[ci] = (evaluated, skipped + result.excludedCount)
    }

    /// Loads an expression's inputs from the chunk's typed columns.
    private static func loader(_ expression: CompiledExpression, _ columns: ChunkColumns) -> CompiledExpression.InputLoader {
        let attributes = expression.inputs.map { name in columns.entity.plan.attributes.firstIndex { $0.name == name } ?? -1 }
        return { i, rows, excluded, skipped, bytes in
            let c = columns.column(attributes[i])
            return ExpressionInputs.column(c.type, state: c.state, numbers: c.numbers, ints: c.ints, cells: c.cells,
                                           rows: rows, chunk: columns.chunk, bytes: bytes, skip: excluded,
                                           missingIsNull: expression.missingIsNull[i], skipped: &skipped)
        }
    }
}
