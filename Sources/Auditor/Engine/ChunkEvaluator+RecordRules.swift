/// Record rules (`when:` / `assert:` expressions) over a chunk, their inputs read from the
/// chunk's typed columns.
extension ChunkEvaluator {
    /// Evaluates a rule over whole records: `when` selects the records, `assert` must hold.
    /// A record whose inputs are missing or invalid is skipped, and counted as such.
    /// Inputs come from the chunk's typed columns (``ChunkColumns``), not parsed again.
    static func evaluateRecordRule(_ columns: ChunkColumns, _ ci: Int,
                                   _ when: CompiledExpression?, _ assert: CompiledExpression,
                                   _ excluded: [Bool], previous: PreviousValues? = nil,
                                   _ hits: inout [Hit], _ result: inout ChunkEvaluation) {
        let entity = columns.entity
        let chunk = columns.chunk
        guard entity.columns(of: assert) != nil, when.map({ entity.columns(of: $0) != nil }) ?? true else {
            return      // an input column the source lacks (tolerated by a columns: rule)
        }
        var skip = excluded
        var skipped = 0
        if let when {
            for (r, o) in when.evaluate(chunk, skip: excluded, load: loader(when, columns, previous)).enumerated() where !excluded[r] {
                if o == .skipped { skipped += 1 }
                if o != .true { skip[r] = true }
            }
        }
        var evaluated = 0
        for (r, o) in assert.evaluate(chunk, skip: skip, load: loader(assert, columns, previous)).enumerated() where !skip[r] {
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

    /// The records where `expression` holds (its inputs present and valid, and it is true):
    /// the records a rule's `when:` selects.
    static func holds(_ expression: CompiledExpression, _ columns: ChunkColumns, _ excluded: [Bool]) -> [Bool] {
        guard columns.entity.columns(of: expression) != nil else { return [Bool](repeating: false, count: excluded.count) }
        return expression.evaluate(columns.chunk, skip: excluded, load: loader(expression, columns, nil)).enumerated()
            .map { r, o in !excluded[r] && o == .true }
    }

    /// Loads an expression's inputs from the chunk's typed columns.
    private static func loader(_ expression: CompiledExpression, _ columns: ChunkColumns,
                               _ previous: PreviousValues?) -> CompiledExpression.InputLoader {
        let inputs = expression.inputs.map(LifecycleInput.init)
        let attributes = inputs.map { input in columns.entity.plan.attributes.firstIndex { $0.name == input.attribute } ?? -1 }
        return { i, rows, excluded, skipped, bytes in
            switch inputs[i] {
            case .current: break
            case .previous:
                return previousColumn(attributes[i], expression.missingIsNull[i], previous, columns.entity, rows, excluded, &skipped)
            case .changed:
                let updated = LifecycleScope.updated.rawValue
                return BoolColumn(values: rows.map { r in
                    guard let changes = previous?.changes, changes.classes[r] == updated else { return 0 }
                    return changes.changed(r, attributes[i]) ? 1 : 0
                })
            }
            let c = columns.column(attributes[i])
            return ExpressionInputs.column(c.type, state: c.state, numbers: c.numbers, ints: c.ints, cells: c.cells,
                                           rows: rows, chunk: columns.chunk, bytes: bytes, skip: excluded,
                                           missingIsNull: expression.missingIsNull[i], skipped: &skipped)
        }
    }

    /// `previous.x` for a batch of rows: the previous snapshot's text of attribute `a` for
    /// each updated row, classified as its declared type exactly as the current value is
    /// (missing or type-invalid: the row is skipped, unless inside a null-aware function).
    private static func previousColumn(_ a: Int, _ missingIsNull: Bool, _ previous: PreviousValues?,
                                       _ entity: BoundEntity, _ rows: Range<Int>, _ excluded: [Bool],
                                       _ skipped: inout [Bool]) -> any ExpressionColumn {
        var bytes = [UInt8]()
        var cells = [Cell]()
        cells.reserveCapacity(rows.count)
        for r in rows {
            guard let previous, previous.changes.classes[r] == LifecycleScope.updated.rawValue,
                  previous.changes.previous[r] >= 0,
                  let text = previous.index.text(Int(previous.changes.previous[r]), a) else {
                cells.append(.missing)
                continue
            }
            cells.append(.text(offset: bytes.count, length: text.count))
            bytes += text
        }
        let chunk = RecordChunk(firstRecord: 0, count: cells.count, bytes: bytes, columns: [cells], locations: [])
        return bytes.withUnsafeBufferPointer { buffer in
            ExpressionInputs.load(entity.plan.attributes[a].type, column: cells, chunk: chunk, bytes: buffer,
                                  skip: excluded, missingIsNull: missingIsNull, skipped: &skipped)
        }
    }
}

/// What `previous.x` and `changed(x)` read: the chunk's classification against the previous
/// snapshot, and that snapshot's index (with the texts of the attributes rules read as `previous.x`).
struct PreviousValues {
    var changes: RowChanges
    var index: SnapshotIndex
}
