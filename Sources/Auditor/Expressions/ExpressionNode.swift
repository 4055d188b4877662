/// One node of a compiled expression: computes a whole typed column for the chunk at once.
///
/// The tree is built once by ``ExpressionChecker``; evaluation walks it once per chunk, so
/// dispatch costs one call per node per chunk and every row is handled by a tight loop
/// inside a kernel.
protocol ExpressionNode<Column>: Sendable {
    associatedtype Column: ExpressionColumn
    /// Computes the column for every row of the context.
    func evaluate(_ context: EvaluationContext) -> Column
}

/// What nodes read while evaluating one chunk: the row count and the typed input columns
/// (one per attribute the expression reads, loaded by ``ExpressionInputs``).
final class EvaluationContext {
    let count: Int
    let inputs: [any ExpressionColumn]

    init(count: Int, inputs: [any ExpressionColumn]) {
        self.count = count
        self.inputs = inputs
    }

    /// The context constants are folded in: one row, no inputs.
    static func constant() -> EvaluationContext { EvaluationContext(count: 1, inputs: []) }
}

/// A constant, stored as a one-row column and broadcast to the chunk's row count.
struct ConstantNode<C: ExpressionColumn>: ExpressionNode {
    let value: C
    func evaluate(_ context: EvaluationContext) -> C { value.repeated(context.count) }
}

/// An attribute: the input column loaded for it.
struct InputNode<C: ExpressionColumn>: ExpressionNode {
    let slot: Int
    func evaluate(_ context: EvaluationContext) -> C {
        // The checker gives an input node the column type its loader produces; the fallback
        // only guards against a mismatch between them.
        (context.inputs[slot] as? C) ?? C.nulls(context.count)
    }
}

/// `isNull(x)` (negated: false) and `present(x)` (negated: true, strings also non-empty).
/// Never unknown.
struct PresenceNode<C: ExpressionColumn>: ExpressionNode {
    let operand: any ExpressionNode<C>
    let present: Bool
    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        let p = operand.evaluate(context).presence(nonEmpty: present)
        return BoolColumn(values: present ? p : Rows.map(p) { $0 ^ 1 })
    }
}

/// `coalesce(a, b, …)`: the first non-null argument.
struct CoalesceNode<C: ExpressionColumn>: ExpressionNode {
    let operands: [any ExpressionNode<C>]
    func evaluate(_ context: EvaluationContext) -> C {
        var result = operands[0].evaluate(context)
        for next in operands.dropFirst() {
            result = C.select(result.presence(nonEmpty: false), result, next.evaluate(context))
        }
        return result
    }
}

/// `if(condition, a, b)`: `a` where the condition is true, `b` where it is false or unknown.
struct ConditionalNode<C: ExpressionColumn>: ExpressionNode {
    let condition: any ExpressionNode<BoolColumn>
    let then: any ExpressionNode<C>
    let otherwise: any ExpressionNode<C>
    func evaluate(_ context: EvaluationContext) -> C {
        let pick = Rows.map(condition.evaluate(context).values) { $0 == 1 ? UInt8(1) : 0 }
        return C.select(pick, then.evaluate(context), otherwise.evaluate(context))
    }
}

/// `a <op> b` for two columns of the same type.
struct ComparisonNode<C: ExpressionColumn>: ExpressionNode {
    let op: ComparisonOperator
    let left: any ExpressionNode<C>
    let right: any ExpressionNode<C>
    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        C.compare(op, left.evaluate(context), right.evaluate(context))
    }
}

/// `min(a, b, …)` / `max(a, b, …)`: null when any argument is null.
struct ExtremeNode<C: ExpressionColumn>: ExpressionNode {
    let greatest: Bool
    let operands: [any ExpressionNode<C>]
    func evaluate(_ context: EvaluationContext) -> C {
        var result = operands[0].evaluate(context)
        for next in operands.dropFirst() {
            let other = next.evaluate(context)
            // pick 1: keep result, 0: take other, 2 (either null): null.
            let pick = C.compare(greatest ? .greaterEqual : .lessEqual, result, other).values
            result = C.select(pick, result, other)
        }
        return result
    }
}

// MARK: - Boolean logic (Kleene's three-valued logic, as in SQL)

struct NotNode: ExpressionNode {
    let operand: any ExpressionNode<BoolColumn>
    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        BoolColumn(values: Rows.map(operand.evaluate(context).values) { $0 == BoolColumn.unknown ? $0 : $0 ^ 1 })
    }
}

/// `and` / `or`. `false and unknown` is false, `true or unknown` is true.
struct LogicalNode: ExpressionNode {
    let op: LogicalOperator
    let left: any ExpressionNode<BoolColumn>
    let right: any ExpressionNode<BoolColumn>
    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        let a = left.evaluate(context).values
        let b = right.evaluate(context).values
        switch op {
        case .and:
            return BoolColumn(values: Rows.zip(a, b) { x, y in x == 0 || y == 0 ? 0 : x == 1 && y == 1 ? 1 : BoolColumn.unknown })
        case .or:
            return BoolColumn(values: Rows.zip(a, b) { x, y in x == 1 || y == 1 ? 1 : x == 0 && y == 0 ? 0 : BoolColumn.unknown })
        }
    }
}

/// `x in [constants]` for numbers: true on a match, unknown when `x` is null or when there
/// is no match and the list holds a null (SQL), false otherwise.
struct NumberInListNode: ExpressionNode {
    let operand: any ExpressionNode<NumberColumn>
    /// Sorted, without nulls.
    let options: [Double]
    let listHasNull: Bool
    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        let miss: UInt8 = listHasNull ? BoolColumn.unknown : 0
        let options = self.options
        return BoolColumn(values: Rows.map(operand.evaluate(context).values) { v in
            if v.isNaN { return BoolColumn.unknown }
            if options.count <= 8 { return options.contains(v) ? 1 : miss }
            var lo = 0
            var hi = options.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if options[mid] < v { lo = mid + 1 } else { hi = mid }
            }
            return lo < options.count && options[lo] == v ? 1 : miss
        })
    }
}

/// `x in [constants]` for strings, with the same null rules as ``NumberInListNode``.
struct StringInListNode: ExpressionNode {
    let operand: any ExpressionNode<StringColumn>
    let options: [[UInt8]]
    let listHasNull: Bool
    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        let column = operand.evaluate(context)
        let miss: UInt8 = listHasNull ? BoolColumn.unknown : 0
        var out = [UInt8](repeating: BoolColumn.unknown, count: column.count)
        column.withSlices { slice in
            for r in 0 ..< out.count {
                guard let text = slice(r) else { continue }
                var hit = false
                for option in options where option.count == text.count {
                    if option.withUnsafeBufferPointer({ Bytes.equal($0, text) }) {
                        hit = true
                        break
                    }
                }
                out[r] = hit ? 1 : miss
            }
        }
        return BoolColumn(values: out)
    }
}
