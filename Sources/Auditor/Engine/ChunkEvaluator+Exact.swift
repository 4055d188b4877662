/// The exact comparisons behind the fast ones: what a double cannot decide (a number with
/// more than 15 significant digits, a value equal to a bound's double, a date-time's fraction)
/// is decided on the exact values (``ExactDecimal``, ``ExactInstant``).
extension ChunkEvaluator {
    /// The exact value of a valid cell of an ordered type, or nil (an infinite REAL).
    static func exactValue(_ type: ValueType, _ cell: Cell, _ bytes: UnsafeBufferPointer<UInt8>) -> ExactValue? {
        switch cell.tag {
        case .text:
            let t = TypedParse.text(cell, bytes)
            if type == .datetime { return ExactInstant(text: t).map { .instant($0) } }
            return ExactDecimal(text: t).map { .number($0) }
        case .integer:
            return .number(ExactDecimal(cell.integerValue))
        case .real:
            return ExactDecimal(cell.realValue).map { .number($0) }
        default:
            return nil
        }
    }

    /// -1, 0 or 1 as the valid cell is below, equal to or above the bound. Called only when
    /// the fast forms are equal or the value's is NaN.
    /// - Parameter flag: the row's `ints` entry (for a date-time: whether it has a fraction).
    static func compareExact(_ type: ValueType, _ cell: Cell, _ flag: Int64,
                             _ bytes: UnsafeBufferPointer<UInt8>, _ bound: OrderedBound) -> Int {
        guard let exact = bound.exact else { return 0 }   // a date: the days are exact
        if type == .datetime, flag == 0, case .instant(let b) = exact {
            // A whole second, equal to the bound's: the bound's fraction decides.
            return b.fraction.isEmpty ? 0 : -1
        }
        guard let value = exactValue(type, cell, bytes) else {
            // ±infinity (a REAL past 1e308) is beyond every finite bound.
            return cell.realValue < 0 ? -1 : 1
        }
        return ExactValue.compare(value, exact)
    }

    /// Whether a valid number is whole: by its double when that is exact, else exactly.
    @inline(__always)
    static func isIntegral(_ v: Double, _ cell: Cell, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if !v.isNaN { return v == v.rounded() }
        guard case .number(let d)? = exactValue(.decimal, cell, bytes) else { return true }
        return d.isIntegral
    }

    /// Whether a valid number is one of `allowed`: by its double when it has at most 15
    /// significant digits (no other value shares that double), else exactly.
    @inline(__always)
    static func contains(_ allowed: NumberSet, _ v: Double, _ cell: Cell, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if allowed.fast.contains(v) { return true }
        // A short value not in `fast` equals no member; a REAL may equal a long one.
        guard v.isNaN || (cell.tag == .real && allowed.hasLong) else { return false }
        guard case .number(let d)? = exactValue(.decimal, cell, bytes) else { return false }
        return allowed.exact.contains(d)
    }
}
