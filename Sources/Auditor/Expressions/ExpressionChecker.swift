/// A checked sub-expression: its node and whether it reads no attribute (then it has been
/// folded into a constant).
struct Typed {
    var node: TypedNode
    var isConstant: Bool
    /// For a number built from inputs, constants, `+`, `-`, `*` and negation: the same
    /// computation, to decide close comparisons exactly (``ExactNumberComparisonNode``).
    var exact: ExactTerm? = nil
    var type: ExpressionType { node.type }

    static func constant<C: ExpressionColumn>(_ value: C) -> Typed {
        Typed(node: TypedNode(ConstantNode(value: value)), isConstant: true)
    }
}

/// Binds names, checks types and builds the vector-operation tree from a syntax tree.
///
/// Records which attributes are read (in first-use order) and whether each is read outside
/// the null-aware functions, which decides whether a missing value skips the row.
struct ExpressionChecker {
    typealias Failure = ExpressionLexer.Failure

    let attributes: [ExpressionAttribute]
    let now: Int64
    /// Indexes into `attributes` of the attributes read, in first-use order.
    private(set) var inputs = [Int]()
    /// Per input: read at least once outside `isNull`/`present`/`isEmpty`/`coalesce`.
    private(set) var readOutsideNullAware = [Bool]()
    private var nullAwareDepth = 0

    init(attributes: [ExpressionAttribute], now: Int64) {
        self.attributes = attributes
        self.now = now
    }

    /// Checks a syntax tree.
    /// - Throws: ``ExpressionLexer/Failure`` at the offending token.
    mutating func check(_ s: ExpressionSyntax) throws(Failure) -> Typed {
        switch s.kind {
        case .number(let v):
            var t = Typed.constant(NumberColumn(values: [v]))
            t.exact = .constant(v)
            return t
        case .string(let text):
            return .constant(StringColumn(storage: Array(text.utf8), starts: [0], lengths: [Int32(text.utf8.count)]))
        case .boolean(let b):
            return .constant(BoolColumn(values: [b ? 1 : 0]))
        case .null:
            return Typed(node: .null, isConstant: true)
        case .attribute(let name):
            return try attribute(name, at: s.offset)
        case .list:
            throw Failure(offset: s.offset, message: "a list '[…]' can only follow 'in'")
        case .not(let operand):
            let x = try check(operand)
            guard let b = x.node.coerced(to: .boolean)?.node(BoolColumn.self) else {
                throw Failure(offset: s.offset, message: "'not' needs a boolean operand, got \(x.type.phrase)")
            }
            return result(TypedNode(NotNode(operand: b)), x.isConstant)
        case .negate(let operand):
            let x = try check(operand)
            guard let n = x.node.coerced(to: .number)?.node(NumberColumn.self) else {
                throw Failure(offset: s.offset, message: "cannot negate \(x.type.phrase)")
            }
            var t = result(TypedNode(NumberUnaryNode(op: .negate, operand: n)), x.isConstant)
            t.exact = x.exact.map { .negate($0) }
            return t
        case .arithmetic(let op, let l, let r):
            return try arithmetic(op, try check(l), try check(r), at: s.offset)
        case .logical(let op, let l, let r):
            let a = try check(l)
            let b = try check(r)
            guard let x = a.node.coerced(to: .boolean)?.node(BoolColumn.self),
                  let y = b.node.coerced(to: .boolean)?.node(BoolColumn.self) else {
                let side = a.node.coerced(to: .boolean) == nil ? "left side is \(a.type.phrase)" : "right side is \(b.type.phrase)"
                throw Failure(offset: s.offset, message: "'\(op.rawValue)' needs boolean operands, but its \(side)")
            }
            return result(TypedNode(LogicalNode(op: op, left: x, right: y)), a.isConstant && b.isConstant)
        case .comparison(let op, let l, let r):
            return try comparison(op, try check(l), try check(r), at: s.offset)
        case .membership(let value, let items, let negated):
            return try membership(try check(value), items, negated: negated, at: s.offset)
        case .between(let value, let low, let high, let negated):
            let v = try check(value)
            let lo = try comparison(.greaterEqual, v, try check(low), at: s.offset)
            let hi = try comparison(.lessEqual, v, try check(high), at: s.offset)
            return try logical(.and, lo, hi, negated: negated)
        case .call(let name, let arguments):
            return try call(name, arguments, at: s.offset)
        }
    }

    /// A node, folded into a constant when it reads no attribute.
    private func result(_ node: TypedNode, _ constant: Bool) -> Typed {
        Typed(node: constant ? node.folded() : node, isConstant: constant)
    }

    private func logical(_ op: LogicalOperator, _ a: Typed, _ b: Typed, negated: Bool) throws(Failure) -> Typed {
        // Both sides are comparisons built by the checker, hence boolean.
        guard let x = a.node.node(BoolColumn.self), let y = b.node.node(BoolColumn.self) else {
            throw Failure(offset: 0, message: "internal error: '\(op.rawValue)' of non-boolean operands")
        }
        let node = LogicalNode(op: op, left: x, right: y)
        return result(negated ? TypedNode(NotNode(operand: node)) : TypedNode(node), a.isConstant && b.isConstant)
    }

    // MARK: Attributes

    private mutating func attribute(_ name: String, at offset: Int) throws(Failure) -> Typed {
        guard let index = attributes.firstIndex(where: { $0.name == name }) else {
            throw Failure(offset: offset, message: unknownAttribute(name))
        }
        let slot: Int
        if let existing = inputs.firstIndex(of: index) {
            slot = existing
        } else {
            slot = inputs.count
            inputs.append(index)
            readOutsideNullAware.append(false)
        }
        if nullAwareDepth == 0 { readOutsideNullAware[slot] = true }
        let node: TypedNode
        switch attributes[index].type {
        case .string: node = TypedNode(InputNode<StringColumn>(slot: slot))
        case .integer, .decimal:
            return Typed(node: TypedNode(InputNode<NumberColumn>(slot: slot)), isConstant: false, exact: .input(slot))
        case .boolean: node = TypedNode(InputNode<BoolColumn>(slot: slot))
        case .date: node = TypedNode(InputNode<DateColumn>(slot: slot))
        case .datetime: node = TypedNode(InputNode<DatetimeColumn>(slot: slot))
        }
        return Typed(node: node, isConstant: false)
    }

    private func unknownAttribute(_ name: String) -> String {
        if case .previous(let n) = LifecycleInput(name) {
            let m = unknownAttribute(n)
            let head = "unknown attribute '\(n)'"
            return m.hasPrefix(head) ? head + " in '\(name)'" + m.dropFirst(head.count) : m
        }
        if let k = ExpressionToken.Keyword(rawValue: name.lowercased()) {
            return "unknown attribute '\(name)'; keywords are lower case: write '\(k.rawValue)'"
        }
        if let f = ExpressionFunctions.named(name) {
            return "'\(name)' is a function; call it with parentheses: '\(name)(\(f.arity.upperBound == 0 ? "" : "…"))'"
        }
        let names = attributes.map(\.name).filter { !LifecycleInput($0).readsPrevious }
        var m = "unknown attribute '\(name)'"
        if let s = Suggest.closest(to: name, in: names) {
            m += "; did you mean '\(s)'?"
        } else if names.isEmpty {
            m += " (this expression cannot read attributes)"
        } else {
            m += " (known: \(names.prefix(12).joined(separator: ", "))\(names.count > 12 ? ", ..." : ""))"
        }
        return m
    }

    // MARK: Operators

    private func arithmetic(_ op: ArithmeticOperator, _ a: Typed, _ b: Typed, at offset: Int) throws(Failure) -> Typed {
        let constant = a.isConstant && b.isConstant
        if op == .add, a.type == .string || b.type == .string,
           let x = a.node.coerced(to: .string)?.node(StringColumn.self),
           let y = b.node.coerced(to: .string)?.node(StringColumn.self) {
            return result(TypedNode(ConcatenationNode(left: x, right: y)), constant)
        }
        if let x = a.node.coerced(to: .number)?.node(NumberColumn.self),
           let y = b.node.coerced(to: .number)?.node(NumberColumn.self) {
            let kind: NumberBinaryNode.Operation
            switch op {
            case .add: kind = .add
            case .subtract: kind = .subtract
            case .multiply: kind = .multiply
            case .divide: kind = .divide
            case .remainder: kind = .remainder
            }
            var t = result(TypedNode(NumberBinaryNode(op: kind, left: x, right: y)), constant)
            if let p = a.exact, let q = b.exact {
                switch op {
                case .add: t.exact = .add(p, q)
                case .subtract: t.exact = .subtract(p, q)
                case .multiply: t.exact = .multiply(p, q)
                case .divide, .remainder: t.exact = nil
                }
            }
            return t
        }
        let (l, r) = (a.type, b.type)
        var m: String
        switch op {
        case .add: m = "cannot add \(l) and \(r)"
        case .subtract: m = "cannot subtract \(r) from \(l)"
        case .multiply: m = "cannot multiply \(l) by \(r)"
        case .divide: m = "cannot divide \(l) by \(r)"
        case .remainder: m = "cannot take the remainder of \(l) divided by \(r)"
        }
        if [l, r].contains(.date) || [l, r].contains(.datetime) {
            m += op == .subtract && l == r ? "; use daysBetween(a, b) for the days between two dates"
                                           : "; use addDays(d, n), addMonths(d, n) or addYears(d, n) to move a date"
        }
        throw Failure(offset: offset, message: m)
    }

    private func comparison(_ op: ComparisonOperator, _ a: Typed, _ b: Typed, at offset: Int) throws(Failure) -> Typed {
        if a.type == .null || b.type == .null {
            throw Failure(offset: offset, message: "comparing with null is always unknown; use isNull(x) or present(x)")
        }
        guard a.type == b.type, let anyNode = a.node.anyNode, let node = anyNode.comparison(op, b.node) else {
            var m = "cannot compare \(a.type) with \(b.type)"
            if [a.type, b.type].contains(.date), [a.type, b.type].contains(.datetime) {
                m += "; convert the datetime with date(…) first (its UTC date)"
            }
            throw Failure(offset: offset, message: m)
        }
        if op.isOrdering, a.type == .boolean {
            throw Failure(offset: offset, message: "cannot order booleans with '\(op.rawValue)'; compare them with == or !=")
        }
        if let p = a.exact, let q = b.exact, !(p.isLeaf && q.isLeaf),
           let x = a.node.node(NumberColumn.self), let y = b.node.node(NumberColumn.self) {
            // Arithmetic on a side: decided exactly where doubles cannot tell.
            return result(TypedNode(ExactNumberComparisonNode(op: op, left: x, right: y, leftTerm: p, rightTerm: q)),
                          a.isConstant && b.isConstant)
        }
        return result(node, a.isConstant && b.isConstant)
    }

    private mutating func membership(_ value: Typed, _ items: [ExpressionSyntax], negated: Bool, at offset: Int) throws(Failure) -> Typed {
        guard !items.isEmpty else { throw Failure(offset: offset, message: "the list after 'in' is empty") }
        if value.type == .null {
            throw Failure(offset: offset, message: "comparing with null is always unknown; use isNull(x) or present(x)")
        }
        var checked = [Typed]()
        for item in items {
            let t = try check(item)
            if t.type != .null, t.type != value.type {
                throw Failure(offset: item.start, message: "cannot compare \(value.type) with \(t.type)")
            }
            checked.append(t)
        }
        let hasNull = checked.contains { $0.type == .null }
        let constants = checked.filter { $0.type != .null }
        var node: TypedNode?
        if checked.allSatisfy(\.isConstant) {
            if let n = value.node.node(NumberColumn.self) {
                let options = constants.compactMap { $0.node.node(NumberColumn.self)?.constantValue().values[0] }
                node = TypedNode(NumberInListNode(operand: n, options: options.filter { !$0.isNaN }.sorted(),
                                                  listHasNull: hasNull || options.contains { $0.isNaN }))
            } else if let n = value.node.node(StringColumn.self) {
                let texts = constants.compactMap { $0.node.node(StringColumn.self)?.constantValue() }
                let options = texts.compactMap { c in c.lengths[0] < 0 ? nil : Array(c.storage[c.starts[0] ..< c.starts[0] + Int(c.lengths[0])]) }
                node = TypedNode(StringInListNode(operand: n, options: options, listHasNull: hasNull || options.count < texts.count))
            }
        }
        var result: Typed
        if let node {
            result = self.result(node, value.isConstant)
        } else {
            // `x in [a, b]` is `x == a or x == b`, which gives SQL's null rules.
            result = Typed(node: TypedNode(ConstantNode(value: BoolColumn(values: [0]))), isConstant: true)
            for (i, item) in checked.enumerated() {
                let equal = item.type == .null ? Typed.constant(BoolColumn.nulls(1))
                                               : try comparison(.equal, value, item, at: items[i].start)
                result = i == 0 ? equal : try logical(.or, result, equal, negated: false)
            }
        }
        guard negated, let b = result.node.node(BoolColumn.self) else { return result }
        return self.result(TypedNode(NotNode(operand: b)), result.isConstant)
    }

    // MARK: Functions

    private mutating func call(_ name: String, _ arguments: [ExpressionSyntax], at offset: Int) throws(Failure) -> Typed {
        if name == LifecycleInput.changedFunction {
            // `changed(salary)`: an input like an attribute (the engine knows which changed).
            guard arguments.count == 1, case .attribute(let a) = arguments[0].kind, LifecycleInput(a) == .current(a) else {
                throw Failure(offset: offset, message: "'changed' takes the name of one attribute, e.g. 'changed(salary)'")
            }
            guard attributes.contains(where: { $0.name == a }) else {
                throw Failure(offset: arguments[0].offset, message: unknownAttribute(a))
            }
            return try attribute(LifecycleInput.changedName(a), at: offset)
        }
        guard let function = ExpressionFunctions.named(name) else {
            var m = "unknown function '\(name)'"
            if let s = Suggest.closest(to: name, in: ExpressionFunctions.names) { m += "; did you mean '\(s)'?" }
            throw Failure(offset: offset, message: m)
        }
        guard function.arity.contains(arguments.count) else {
            throw Failure(offset: offset, message: "'\(name)' takes \(function.arityPhrase), got \(arguments.count)")
        }
        if function.nullAware { nullAwareDepth += 1 }
        var checked = [Typed]()
        for a in arguments {
            do throws(Failure) {
                checked.append(try check(a))
            } catch {
                if function.nullAware { nullAwareDepth -= 1 }
                throw error
            }
        }
        if function.nullAware { nullAwareDepth -= 1 }
        let call = FunctionCall(name: name, arguments: checked, syntax: arguments, now: now)
        let node = try function.build(call)
        return result(node, checked.allSatisfy(\.isConstant))
    }
}
