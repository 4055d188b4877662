/// Exact decimal arithmetic for comparisons whose sides compute with `+`, `-` and `*`
/// (`salary >= previous.salary * 0.8`): doubles decide every row they can decide for sure,
/// and the few rows whose two sides are within the doubles' error bound are decided again
/// with ``ExactDecimal`` values.
///
/// Every number leaf of an expression is exact as a decimal: an input is held as the
/// correctly rounded double of a decimal of at most 15 significant digits (or an integer up
/// to 2^53), and a literal has at most 15 significant digits, so the shortest round-trip
/// form of the double (``ExactDecimal/init(_:)-(Double)``) is the decimal it was read from.

/// A number sub-expression built from inputs, constants, `+`, `-`, `*` and negation: the
/// shape that can be recomputed exactly. Division, remainders and functions are not.
indirect enum ExactTerm: Sendable {
    case input(Int)
    case constant(Double)
    case add(ExactTerm, ExactTerm)
    case subtract(ExactTerm, ExactTerm)
    case multiply(ExactTerm, ExactTerm)
    case negate(ExactTerm)

    /// True for an input or a constant (compared exactly as doubles already).
    var isLeaf: Bool {
        switch self {
        case .input, .constant: return true
        default: return false
        }
    }

    /// The double value of row `r` and a bound on its distance from the exact value, both
    /// computed as the vector kernels compute (one rounding per operation, relative error
    /// at most 2^-53 each; the bound is doubled for safety).
    func approximate(_ inputs: [[Double]], _ r: Int) -> (value: Double, error: Double) {
        let u = 0x1p-52
        switch self {
        case .input(let slot):
            let v = inputs[slot][r]
            return (v, Swift.abs(v) * u)
        case .constant(let v):
            return (v, Swift.abs(v) * u)
        case .add(let a, let b), .subtract(let a, let b):
            let x = a.approximate(inputs, r)
            let y = b.approximate(inputs, r)
            let v: Double
            if case .add = self { v = x.value + y.value } else { v = x.value - y.value }
            return (v, x.error + y.error + Swift.abs(v) * u)
        case .multiply(let a, let b):
            let x = a.approximate(inputs, r)
            let y = b.approximate(inputs, r)
            let v = x.value * y.value
            return (v, Swift.abs(x.value) * y.error + Swift.abs(y.value) * x.error + x.error * y.error + Swift.abs(v) * u)
        case .negate(let a):
            let x = a.approximate(inputs, r)
            return (-x.value, x.error)
        }
    }

    /// The exact value of row `r`; `nil` when an input is null.
    func exact(_ inputs: [[Double]], _ r: Int) -> ExactDecimal? {
        switch self {
        case .input(let slot): return ExactDecimal(inputs[slot][r])
        case .constant(let v): return ExactDecimal(v)
        case .add(let a, let b):
            guard let x = a.exact(inputs, r), let y = b.exact(inputs, r) else { return nil }
            return ExactDecimal.sum(x, y)
        case .subtract(let a, let b):
            guard let x = a.exact(inputs, r), let y = b.exact(inputs, r) else { return nil }
            return ExactDecimal.sum(x, y.negated)
        case .multiply(let a, let b):
            guard let x = a.exact(inputs, r), let y = b.exact(inputs, r) else { return nil }
            return ExactDecimal.product(x, y)
        case .negate(let a):
            return a.exact(inputs, r)?.negated
        }
    }

    /// The input slots the term reads.
    var slots: [Int] {
        switch self {
        case .input(let s): return [s]
        case .constant: return []
        case .add(let a, let b), .subtract(let a, let b), .multiply(let a, let b): return a.slots + b.slots
        case .negate(let a): return a.slots
        }
    }
}

/// `a <op> b` for numbers where a side is an ``ExactTerm`` with arithmetic: the doubles'
/// answer, except on the rows where the two sides are too close for doubles to tell, which
/// are decided exactly.
struct ExactNumberComparisonNode: ExpressionNode {
    let op: ComparisonOperator
    let left: any ExpressionNode<NumberColumn>
    let right: any ExpressionNode<NumberColumn>
    let leftTerm: ExactTerm
    let rightTerm: ExactTerm

    func evaluate(_ context: EvaluationContext) -> BoolColumn {
        let a = left.evaluate(context).values
        let b = right.evaluate(context).values
        var result = NumberColumn.compare(op, NumberColumn(values: a), NumberColumn(values: b))
        // The number inputs as arrays (other slots are never read by a term).
        var inputs = [[Double]](repeating: [], count: context.inputs.count)
        for s in Set(leftTerm.slots + rightTerm.slots) {
            inputs[s] = (context.inputs[s] as? NumberColumn)?.values ?? [Double](repeating: .nan, count: context.count)
        }
        for r in 0 ..< context.count where result.values[r] != BoolColumn.unknown {
            let x = leftTerm.approximate(inputs, r)
            let y = rightTerm.approximate(inputs, r)
            guard Swift.abs(x.value - y.value) <= 2 * (x.error + y.error) else { continue }
            guard let p = leftTerm.exact(inputs, r), let q = rightTerm.exact(inputs, r) else { continue }
            let c = ExactDecimal.compare(p, q)
            let holds: Bool
            switch op {
            case .equal: holds = c == 0
            case .notEqual: holds = c != 0
            case .less: holds = c < 0
            case .lessEqual: holds = c <= 0
            case .greater: holds = c > 0
            case .greaterEqual: holds = c >= 0
            }
            result.values[r] = holds ? 1 : 0
        }
        return result
    }
}

extension ExactDecimal {
    /// The value with the opposite sign.
    var negated: ExactDecimal { ExactDecimal(negative: !negative, digits: digits, exponent: exponent) }

    /// The digits as values 0–9 and the power of ten of the last one: `value = ±D × 10^k`.
    private var integer: (digits: [UInt8], power: Int) {
        (digits.map { $0 - 48 }, exponent - digits.count)
    }

    /// `±D × 10^k` (digits 0–9, most significant first) in canonical form.
    private static func make(negative: Bool, _ d: [UInt8], power k: Int) -> ExactDecimal {
        guard let first = d.firstIndex(where: { $0 != 0 }), let last = d.lastIndex(where: { $0 != 0 }) else { return .zero }
        let n = d.count - first
        return ExactDecimal(negative: negative, digits: d[first ... last].map { $0 + 48 }, exponent: n + k)
    }

    /// `a + b`, exactly.
    static func sum(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal {
        if a.digits.isEmpty { return b }
        if b.digits.isEmpty { return a }
        var (x, kx) = a.integer
        var (y, ky) = b.integer
        let k = Swift.min(kx, ky)
        x += [UInt8](repeating: 0, count: kx - k)
        y += [UInt8](repeating: 0, count: ky - k)
        let n = Swift.max(x.count, y.count) + 1
        x = [UInt8](repeating: 0, count: n - x.count) + x
        y = [UInt8](repeating: 0, count: n - y.count) + y
        if a.negative == b.negative {
            var out = [UInt8](repeating: 0, count: n)
            var carry: UInt8 = 0
            for i in stride(from: n - 1, through: 0, by: -1) {
                let s = x[i] + y[i] + carry
                out[i] = s % 10
                carry = s / 10
            }
            return make(negative: a.negative, out, power: k)
        }
        // Opposite signs: the smaller magnitude from the larger one.
        let xLarger = x.lexicographicallyPrecedes(y) == false
        let (big, small) = xLarger ? (x, y) : (y, x)
        var out = [UInt8](repeating: 0, count: n)
        var borrow: Int = 0
        for i in stride(from: n - 1, through: 0, by: -1) {
            var d = Int(big[i]) - Int(small[i]) - borrow
            borrow = d < 0 ? 1 : 0
            if d < 0 { d += 10 }
            out[i] = UInt8(d)
        }
        return make(negative: xLarger ? a.negative : b.negative, out, power: k)
    }

    /// `a × b`, exactly.
    static func product(_ a: ExactDecimal, _ b: ExactDecimal) -> ExactDecimal {
        if a.digits.isEmpty || b.digits.isEmpty { return .zero }
        let (x, kx) = a.integer
        let (y, ky) = b.integer
        var acc = [Int](repeating: 0, count: x.count + y.count)
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            for j in stride(from: y.count - 1, through: 0, by: -1) {
                acc[i + j + 1] += Int(x[i]) * Int(y[j])
            }
        }
        for i in stride(from: acc.count - 1, to: 0, by: -1) {
            acc[i - 1] += acc[i] / 10
            acc[i] %= 10
        }
        return make(negative: a.negative != b.negative, acc.map { UInt8($0) }, power: kx + ky)
    }
}
