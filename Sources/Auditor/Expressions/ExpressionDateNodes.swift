/// Date and date-time kernels. Dates are days since 1970-01-01 (proleptic Gregorian),
/// date-times are seconds since 1970-01-01T00:00:00Z; all calendar fields are UTC.

/// `year`, `month`, `day`, `dayOfWeek` (1 = Monday … 7 = Sunday) of a date.
struct DatePartNode: ExpressionNode {
    enum Part: Sendable { case year, month, day, dayOfWeek }
    let part: Part
    let operand: any ExpressionNode<DateColumn>

    func evaluate(_ context: EvaluationContext) -> NumberColumn {
        let part = self.part
        return NumberColumn(values: Rows.map(operand.evaluate(context).values) { d in
            guard d != DateColumn.null else { return .nan }
            if part == .dayOfWeek {
                // 1970-01-01 was a Thursday (4).
                let w = (Int(d) + 3) % 7
                return Double((w < 0 ? w + 7 : w) + 1)
            }
            let c = TemporalMath.civil(d)
            switch part {
            case .year: return Double(c.year)
            case .month: return Double(c.month)
            default: return Double(c.day)
            }
        })
    }
}

/// `hour`, `minute`, `second` of a date-time (UTC).
struct TimePartNode: ExpressionNode {
    enum Part: Sendable { case hour, minute, second }
    let part: Part
    let operand: any ExpressionNode<DatetimeColumn>

    func evaluate(_ context: EvaluationContext) -> NumberColumn {
        let part = self.part
        return NumberColumn(values: Rows.map(operand.evaluate(context).values) { s in
            guard s != DatetimeColumn.null else { return .nan }
            let t = s - TemporalMath.floorDiv(s, 86400) * 86400   // seconds into the UTC day, also before 1970
            switch part {
            case .hour: return Double(t / 3600)
            case .minute: return Double(t / 60 % 60)
            case .second: return Double(t % 60)
            }
        })
    }
}

/// Conversions between the temporal types and from text.
struct DateConversionNode: ExpressionNode {
    enum Source: Sendable {
        case datetime(any ExpressionNode<DatetimeColumn>)
        case string(any ExpressionNode<StringColumn>)
    }
    let source: Source

    func evaluate(_ context: EvaluationContext) -> DateColumn {
        switch source {
        case .datetime(let node):
            return DateColumn(values: Rows.map(node.evaluate(context).values) { s in
                s == DatetimeColumn.null ? DateColumn.null : Int32(truncatingIfNeeded: TemporalMath.floorDiv(s, 86400))
            })
        case .string(let node):
            let column = node.evaluate(context)
            var out = [Int32](repeating: DateColumn.null, count: column.count)
            column.withSlices { slice in
                for r in 0 ..< out.count {
                    if let text = slice(r), let d = ByteParsers.date(text) { out[r] = d }
                }
            }
            return DateColumn(values: out)
        }
    }
}

struct DatetimeConversionNode: ExpressionNode {
    enum Source: Sendable {
        case date(any ExpressionNode<DateColumn>)
        case string(any ExpressionNode<StringColumn>)
    }
    let source: Source

    func evaluate(_ context: EvaluationContext) -> DatetimeColumn {
        switch source {
        case .date(let node):
            return DatetimeColumn(values: Rows.map(node.evaluate(context).values) { d in
                d == DateColumn.null ? DatetimeColumn.null : Int64(d) * 86400
            })
        case .string(let node):
            let column = node.evaluate(context)
            var out = [Int64](repeating: DatetimeColumn.null, count: column.count)
            column.withSlices { slice in
                for r in 0 ..< out.count {
                    if let text = slice(r), let s = ByteParsers.datetime(text) { out[r] = s }
                }
            }
            return DatetimeColumn(values: out)
        }
    }
}

/// `yearsBetween(a, b)` and `daysBetween(a, b)`.
struct DateDifferenceNode: ExpressionNode {
    enum Unit: Sendable { case years, days }
    let unit: Unit
    let from: any ExpressionNode<DateColumn>
    let to: any ExpressionNode<DateColumn>

    func evaluate(_ context: EvaluationContext) -> NumberColumn {
        let a = from.evaluate(context).values
        let b = to.evaluate(context).values
        switch unit {
        case .days:
            return NumberColumn(values: Rows.zip(a, b) { x, y in
                x == DateColumn.null || y == DateColumn.null ? .nan : Double(Int(y) - Int(x))
            })
        case .years:
            // An explicit loop: as a closure the calendar arithmetic is not inlined into the row loop.
            let n = min(a.count, b.count)
            return NumberColumn(values: [Double](unsafeUninitializedCapacity: n) { out, count in
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        for i in 0 ..< n {
                            let (x, y) = (a[i], b[i])
                            out.initializeElement(at: i, to: x == DateColumn.null || y == DateColumn.null
                                                  ? .nan : Double(TemporalMath.completedYears(from: x, to: y)))
                        }
                    }
                }
                count = n
            })
        }
    }
}

/// `addDays`, `addMonths`, `addYears`: month and year steps keep the day of month, clamped
/// to the target month's last day (Jan 31 + 1 month = Feb 28 or 29; Feb 29 + 1 year = Feb 28).
struct DateShiftNode: ExpressionNode {
    enum Unit: Sendable { case days, months, years }
    let unit: Unit
    let date: any ExpressionNode<DateColumn>
    let amount: any ExpressionNode<NumberColumn>

    func evaluate(_ context: EvaluationContext) -> DateColumn {
        let unit = self.unit
        return DateColumn(values: Rows.zip(date.evaluate(context).values, amount.evaluate(context).values) { d, n in
            guard d != DateColumn.null, let k = NumberConversion.int(n, limit: 1e8) else { return DateColumn.null }
            return TemporalMath.shift(d, by: k, unit)
        })
    }
}

/// Calendar arithmetic shared by kernels and constant folding.
enum TemporalMath {
    @inline(__always)
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// Completed years from `a` to `b`, rules.md's formula
    /// `year(b) − year(a) − ((month(b), day(b)) < (month(a), day(a)))`: a Feb-29 start
    /// completes its year on Mar 1 in non-leap years. Negative when `b` is before `a`.
    @inline(__always)
    static func completedYears(from a: Int32, to b: Int32) -> Int {
        let x = civil(a)
        let y = civil(b)
        let early = y.month < x.month || (y.month == x.month && y.day < x.day)
        return y.year - x.year - (early ? 1 : 0)
    }

    /// `d` moved by `k` units, or null when the result leaves the representable range.
    static func shift(_ d: Int32, by k: Int, _ unit: DateShiftNode.Unit) -> Int32 {
        var days: Int
        switch unit {
        case .days:
            days = Int(d) + k
        case .months, .years:
            let c = CalendarMath.civil(fromDays: Int(d))
            let months = c.year * 12 + (c.month - 1) + (unit == .months ? k : k * 12)
            let year = months >= 0 ? months / 12 : (months - 11) / 12
            let month = months - year * 12 + 1
            let day = Swift.min(c.day, CalendarMath.daysInMonth(year: year, month: month))
            days = CalendarMath.daysFromCivil(year: year, month: month, day: day)
        }
        guard days > Int(Int32.min), days <= Int(Int32.max) else { return DateColumn.null }
        return Int32(days)
    }
}
