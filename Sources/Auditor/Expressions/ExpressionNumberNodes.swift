/// Number kernels. Numbers are doubles and `NaN` is null, so arithmetic propagates nulls by
/// itself; division and remainder by zero give null instead of infinity.

/// `-x`, `abs`, `floor`, `ceil`, `round` (half away from zero).
struct NumberUnaryNode: ExpressionNode {
    enum Operation: Sendable { case negate, abs, floor, ceil, round }
    let op: Operation
    let operand: any ExpressionNode<NumberColumn>

    func evaluate(_ context: EvaluationContext) -> NumberColumn {
        let x = operand.evaluate(context).values
        switch op {
        case .negate: return NumberColumn(values: Rows.map(x) { -$0 })
        case .abs: return NumberColumn(values: Rows.map(x) { Swift.abs($0) })
        case .floor: return NumberColumn(values: Rows.map(x) { $0.rounded(.down) })
        case .ceil: return NumberColumn(values: Rows.map(x) { $0.rounded(.up) })
        case .round: return NumberColumn(values: Rows.map(x) { $0.rounded(.toNearestOrAwayFromZero) })
        }
    }
}

/// `+ - * / %` and `round(x, digits)`.
struct NumberBinaryNode: ExpressionNode {
    enum Operation: Sendable { case add, subtract, multiply, divide, remainder, roundTo }
    let op: Operation
    let left: any ExpressionNode<NumberColumn>
    let right: any ExpressionNode<NumberColumn>

    func evaluate(_ context: EvaluationContext) -> NumberColumn {
        let a = left.evaluate(context).values
        let b = right.evaluate(context).values
        switch op {
        case .add: return NumberColumn(values: Rows.zip(a, b) { $0 + $1 })
        case .subtract: return NumberColumn(values: Rows.zip(a, b) { $0 - $1 })
        case .multiply: return NumberColumn(values: Rows.zip(a, b) { $0 * $1 })
        case .divide: return NumberColumn(values: Rows.zip(a, b) { $1 == 0 ? .nan : $0 / $1 })
        case .remainder: return NumberColumn(values: Rows.zip(a, b) { $1 == 0 ? .nan : $0.truncatingRemainder(dividingBy: $1) })
        case .roundTo: return NumberColumn(values: Rows.zip(a, b, Self.round))
        }
    }

    /// `x` rounded half away from zero to `digits` decimals (truncated to an integer, -15...15).
    static func round(_ x: Double, _ digits: Double) -> Double {
        guard !digits.isNaN else { return .nan }
        let d = Int(Swift.max(-15, Swift.min(15, digits.rounded(.towardZero))))
        let scale = ByteParsers.pow10(Swift.abs(d))
        if d >= 0 { return (x * scale).rounded(.toNearestOrAwayFromZero) / scale }
        return (x / scale).rounded(.toNearestOrAwayFromZero) * scale
    }
}

/// Conversions between numbers and the integers that index calendars.
enum NumberConversion {
    /// An integral value of `x` (truncated toward zero) within ±`limit`, or `nil` for null
    /// and out-of-range values (never traps).
    @inline(__always)
    static func int(_ x: Double, limit: Double = 1e9) -> Int? {
        guard x.isFinite, Swift.abs(x) <= limit else { return nil }
        return Int(x.rounded(.towardZero))
    }
}
