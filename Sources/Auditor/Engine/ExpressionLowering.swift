/// Lowers a record rule's expression (its syntax tree) to an SQL condition that, where every
/// input is valid, is true or false exactly as the streaming engine's evaluation. Covers
/// comparisons of attributes and integer, string and boolean literals, `and`/`or`/`not`,
/// `in`, `between`, `date(datetime)` and `yearsBetween`, and, where the dialect has an exact
/// decimal type (``SQLDialect/exactDecimal(_:_:)``), comparisons of numbers computed with
/// `+`, `-`, `*` and negation from inputs and any literals; anything else is nil.
struct ExpressionLowering {
    let plan: EntityPlan
    let dialect: any SQLDialect

    enum Value {
        case integer(String)       // an integer (or exact decimal compared with integers)
        case text(String)
        case date(String)          // a YYYY-MM-DD text
        case condition(String)
    }

    func condition(_ expression: CompiledExpression) -> String? {
        guard let syntax = expression.syntax, expression.missingIsNull.allSatisfy({ !$0 }),
              case .condition(let c)? = value(syntax) else { return nil }
        return c
    }

    private func attribute(_ name: String) -> AttributePlan? {
        plan.attributes.first { $0.name == name }
    }

    private func value(_ node: ExpressionSyntax) -> Value? {
        switch node.kind {
        case .number(let v):
            guard v.rounded() == v, abs(v) < 9_007_199_254_740_992 else { return nil }
            return .integer(String(Int64(v)))
        case .string(let s): return .text(dialect.literal(s))
        case .boolean(let b): return .condition(b ? "(1 = 1)" : "(1 = 0)")
        case .attribute(let name):
            guard let a = attribute(name), dialect.column(name) != nil else { return nil }
            switch a.type {
            case .integer, .decimal: return dialect.number(name, a.type).map(Value.integer)
            case .string: return .text(dialect.bytes(name))
            case .boolean: return .condition("(\(dialect.isTrue(name)))")
            case .date: return dialect.dateText(name, .date).map(Value.date)
            case .datetime: return nil
            }
        case .not(let x):
            guard case .condition(let c)? = value(x) else { return nil }
            return .condition("(NOT \(c))")
        case .logical(let op, let l, let r):
            guard case .condition(let a)? = value(l), case .condition(let b)? = value(r) else { return nil }
            return .condition("(\(a) \(op == .and ? "AND" : "OR") \(b))")
        case .comparison(let op, let l, let r):
            return comparison(op, l, r)
        case .between(let x, let low, let high, let negated):
            // As the engine reads it: `x >= low and x <= high`.
            guard case .condition(let a)? = comparison(.greaterEqual, x, low),
                  case .condition(let b)? = comparison(.lessEqual, x, high) else { return nil }
            return .condition("(\(negated ? "NOT " : "")(\(a) AND \(b)))")
        case .membership(let x, let items, let negated):
            guard let v = value(x) else { return nil }
            var list = [String]()
            for item in items {
                switch (v, value(item)) {
                case (.integer, .integer(let i)?), (.text, .text(let i)?): list.append(i)
                default: return nil
                }
            }
            guard !list.isEmpty else { return nil }
            let subject: String
            switch v {
            case .integer(let s), .text(let s): subject = s
            default: return nil
            }
            return .condition("(\(subject) \(negated ? "NOT IN" : "IN") (\(list.joined(separator: ", "))))")
        case .call(let name, let args):
            switch (name, args.count) {
            case ("date", 1):
                if case .attribute(let n) = args[0].kind, let a = attribute(n), a.type == .datetime || a.type == .date {
                    return dialect.dateText(n, a.type).map(Value.date)
                }
                return nil
            case ("yearsBetween", 2):
                guard case .date(let from)? = value(args[0]), case .date(let to)? = value(args[1]) else { return nil }
                let years = "(\(dialect.year(to)) - \(dialect.year(from)))"
                return .integer("(\(years) - (CASE WHEN \(dialect.monthDay(to)) < \(dialect.monthDay(from)) THEN 1 ELSE 0 END))")
            default: return nil
            }
        case .null, .list, .negate, .arithmetic:
            return nil
        }
    }

    private func comparison(_ op: ComparisonOperator, _ l: ExpressionSyntax, _ r: ExpressionSyntax) -> Value? {
        // Our spelling is SQL's but for equality.
        let sql = op == .equal ? "=" : op == .notEqual ? "<>" : op.rawValue
        guard let a = value(l), let b = value(r) else {
            // Numbers the engine computes exactly (an ``ExactTerm`` on each side: arithmetic, a
            // decimal literal) compare as exact decimals; integers and inputs compare as they are.
            guard let x = exact(l), let y = exact(r) else { return nil }
            return .condition("(\(x.sql) \(sql) \(y.sql))")
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)), (.date(let x), .date(let y)):
            return .condition("(\(x) \(sql) \(y))")
        case (.text(let x), .text(let y)) where op == .equal || op == .notEqual:
            return .condition("(\(x) \(sql) \(y))")
        case (.condition(let x), .condition(let y)) where op == .equal || op == .notEqual:
            return .condition("((\(x)) \(sql) (\(y)))")
        default: return nil
        }
    }

    /// A number as the dialect's exact decimal, where the streaming engine's value is exact:
    /// the shape of an ``ExactTerm`` (number inputs, literals, `+`, `-`, `*`, negation), which
    /// a comparison decides exactly as long as no double it computes on the way overflows or
    /// becomes subnormal. So every value on the way is bounded: `largest` is the most its
    /// magnitude can be, `smallest` the least it can be when not zero (infinity: always
    /// zero), from the inputs' bounds (``SQLDialect/exactNumber(_:_:)``: an integer up to
    /// 2^53, a decimal from 1e-6 to 1e15) and kept within 1e-290…1e290. Nil otherwise.
    private func exact(_ node: ExpressionSyntax) -> (sql: String, largest: Double, smallest: Double)? {
        let term: (sql: String, largest: Double, smallest: Double)
        switch node.kind {
        case .number(let v):
            guard let d = ExactDecimal(v), let sql = dialect.exactDecimal(d) else { return nil }
            term = (sql, abs(v), v == 0 ? .infinity : abs(v))
        case .attribute(let name):
            guard let a = attribute(name), let sql = dialect.exactDecimal(name, a.type) else { return nil }
            switch a.type {
            case .integer: term = (sql, 0x1p53, 1)
            case .decimal: term = (sql, 1e15, 1e-6)
            default: return nil
            }
        case .negate(let x):
            guard let x = exact(x) else { return nil }
            term = ("(- \(x.sql))", x.largest, x.smallest)
        case .arithmetic(let op, let l, let r):
            guard let x = exact(l), let y = exact(r) else { return nil }
            switch op {
            case .add, .subtract:
                // A sum of two doubles is a multiple of the smaller one's unit in the last place.
                term = ("(\(x.sql) \(op == .add ? "+" : "-") \(y.sql))", x.largest + y.largest, min(x.smallest, y.smallest) * 0x1p-53)
            case .multiply:
                term = ("(\(x.sql) * \(y.sql))", x.largest * y.largest, x.smallest * y.smallest)
            case .divide, .remainder:
                return nil
            }
        default:
            return nil
        }
        guard term.largest <= 1e290, term.smallest >= 1e-290 else { return nil }
        return term
    }
}
