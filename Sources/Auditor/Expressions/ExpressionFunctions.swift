/// One built-in function: its name, argument count and how it builds its node from checked
/// arguments (checking their types).
struct ExpressionFunction: Sendable {
    let name: String
    let arity: ClosedRange<Int>
    /// Reading an attribute only inside this function's arguments makes a missing value a null
    /// instead of skipping the row.
    let nullAware: Bool
    let build: @Sendable (FunctionCall) throws(ExpressionLexer.Failure) -> TypedNode

    init(_ name: String, _ arity: ClosedRange<Int>, nullAware: Bool = false,
         _ build: @escaping @Sendable (FunctionCall) throws(ExpressionLexer.Failure) -> TypedNode) {
        self.name = name
        self.arity = arity
        self.nullAware = nullAware
        self.build = build
    }

    /// "1 argument", "1 or 2 arguments", "at least 2 arguments", "no arguments".
    var arityPhrase: String {
        let (lo, hi) = (arity.lowerBound, arity.upperBound)
        if hi == Int.max { return "at least \(lo) arguments" }
        if lo == hi { return lo == 0 ? "no arguments" : lo == 1 ? "1 argument" : "\(lo) arguments" }
        return "\(lo) or \(hi) arguments"
    }
}

/// The checked arguments of one call, with typed accessors that report type errors at the
/// offending argument.
struct FunctionCall {
    typealias Failure = ExpressionLexer.Failure
    let name: String
    let arguments: [Typed]
    let syntax: [ExpressionSyntax]
    let now: Int64

    var count: Int { arguments.count }
    func type(_ i: Int) -> ExpressionType { arguments[i].type }

    /// Argument `i` as column type `C` (a null literal becomes a null of that type).
    func argument<C: ExpressionColumn>(_ i: Int, _ type: C.Type) throws(Failure) -> any ExpressionNode<C> {
        if let n = arguments[i].node.coerced(to: C.expressionType)?.node(C.self) { return n }
        var m = "argument \(i + 1) of '\(name)' must be \(C.expressionType.phrase), got \(arguments[i].type.phrase)"
        if C.expressionType == .date, arguments[i].type == .datetime { m += "; convert it with date(…) (its UTC date)" }
        throw Failure(offset: syntax[i].start, message: m)
    }

    func number(_ i: Int) throws(Failure) -> any ExpressionNode<NumberColumn> { try argument(i, NumberColumn.self) }
    func string(_ i: Int) throws(Failure) -> any ExpressionNode<StringColumn> { try argument(i, StringColumn.self) }
    func boolean(_ i: Int) throws(Failure) -> any ExpressionNode<BoolColumn> { try argument(i, BoolColumn.self) }
    func date(_ i: Int) throws(Failure) -> any ExpressionNode<DateColumn> { try argument(i, DateColumn.self) }

    /// A date, or a date-time converted to its UTC date (for functions reading calendar fields).
    func dateOrDatetime(_ i: Int) throws(Failure) -> any ExpressionNode<DateColumn> {
        if let t = arguments[i].node.node(DatetimeColumn.self) { return DateConversionNode(source: .datetime(t)) }
        if arguments[i].type == .date || arguments[i].type == .null { return try date(i) }
        throw Failure(offset: syntax[i].start, message: "argument \(i + 1) of '\(name)' must be a date or a datetime, got \(type(i).phrase)")
    }

    /// The value of a constant string argument (a literal), or an error saying it must be one.
    func literalString(_ i: Int, what: String) throws(Failure) -> String {
        guard arguments[i].isConstant, let node = arguments[i].node.node(StringColumn.self),
              let text = node.constantValue().text(0) else {
            throw Failure(offset: syntax[i].start, message: "\(what) of '\(name)' must be a string literal")
        }
        return text
    }

    /// The one type all arguments in `indexes` share (nulls take it); `.null` if all are null.
    func commonType(_ indexes: Range<Int>) throws(Failure) -> ExpressionType {
        var common = ExpressionType.null
        for i in indexes where type(i) != .null {
            if common == .null {
                common = type(i)
            } else if type(i) != common {
                throw Failure(offset: syntax[i].start, message: "the arguments of '\(name)' must have one type: argument \(i + 1) is \(type(i).phrase), an earlier one \(common.phrase)")
            }
        }
        return common
    }

    /// The first argument in `indexes` that is not the null literal, opened for generic use.
    func firstTyped(_ indexes: Range<Int>) -> (any ExpressionNode)? {
        indexes.lazy.compactMap { arguments[$0].node.anyNode }.first
    }
}

/// The built-in functions, documented in `docs/expressions.md`.
enum ExpressionFunctions {
    typealias Failure = ExpressionLexer.Failure

    static func named(_ name: String) -> ExpressionFunction? { table[name] }
    static var names: [String] { all.map(\.name) }

    private static let table: [String: ExpressionFunction] = Dictionary(all.map { ($0.name, $0) }) { a, _ in a }

    static let all: [ExpressionFunction] = strings + nulls + numbers + temporal

    // MARK: Strings

    static let strings: [ExpressionFunction] = [
        .init("len", 1 ... 1) { c throws(Failure) in TypedNode(StringToNumberNode(op: .length, operand: try c.string(0))) },
        .init("lower", 1 ... 1) { c throws(Failure) in TypedNode(StringTransformNode(op: .lower, operand: try c.string(0))) },
        .init("upper", 1 ... 1) { c throws(Failure) in TypedNode(StringTransformNode(op: .upper, operand: try c.string(0))) },
        .init("trim", 1 ... 1) { c throws(Failure) in TypedNode(StringTransformNode(op: .trim, operand: try c.string(0))) },
        .init("number", 1 ... 1) { c throws(Failure) in
            if c.type(0) == .number { return c.arguments[0].node }
            return TypedNode(StringToNumberNode(op: .parse, operand: try c.string(0)))
        },
        .init("matches", 2 ... 2) { c throws(Failure) in
            let text = try c.string(0)
            let source = try c.literalString(1, what: "the pattern")
            do throws(PatternError) {
                return TypedNode(MatchNode(pattern: try Pattern(source), operand: text))
            } catch {
                throw Failure(offset: c.syntax[1].start, message: "invalid pattern '\(source)': \(error.message)")
            }
        },
        .init("startsWith", 2 ... 2) { c throws(Failure) in TypedNode(StringTestNode(op: .startsWith, text: try c.string(0), part: try c.string(1))) },
        .init("endsWith", 2 ... 2) { c throws(Failure) in TypedNode(StringTestNode(op: .endsWith, text: try c.string(0), part: try c.string(1))) },
        .init("contains", 2 ... 2) { c throws(Failure) in TypedNode(StringTestNode(op: .contains, text: try c.string(0), part: try c.string(1))) },
    ]

    // MARK: Nulls and choices

    static let nulls: [ExpressionFunction] = [
        .init("isNull", 1 ... 1, nullAware: true) { c throws(Failure) in
            c.arguments[0].node.anyNode?.presence(present: false) ?? TypedNode(ConstantNode(value: BoolColumn(values: [1])))
        },
        .init("present", 1 ... 1, nullAware: true) { c throws(Failure) in
            c.arguments[0].node.anyNode?.presence(present: true) ?? TypedNode(ConstantNode(value: BoolColumn(values: [0])))
        },
        .init("isEmpty", 1 ... 1, nullAware: true) { c throws(Failure) in TypedNode(EmptyStringNode(operand: try c.string(0))) },
        .init("coalesce", 2 ... Int.max, nullAware: true) { c throws(Failure) in
            _ = try c.commonType(0 ..< c.count)
            guard let first = c.firstTyped(0 ..< c.count) else { return .null }
            return first.coalescing(c.arguments.map(\.node).filter { $0.type != .null }.dropFirst().map { $0 }) ?? .null
        },
        .init("if", 3 ... 3) { c throws(Failure) in
            let condition = try c.boolean(0)
            let type = try c.commonType(1 ..< 3)
            guard type != .null, let then = c.arguments[1].node.coerced(to: type)?.anyNode else { return .null }
            return then.conditional(condition, otherwise: c.arguments[2].node) ?? .null
        },
        .init("min", 2 ... Int.max) { c throws(Failure) in try extreme(c, greatest: false) },
        .init("max", 2 ... Int.max) { c throws(Failure) in try extreme(c, greatest: true) },
    ]

    private static func extreme(_ c: FunctionCall, greatest: Bool) throws(Failure) -> TypedNode {
        let type = try c.commonType(0 ..< c.count)
        if type == .boolean {
            throw Failure(offset: c.syntax[0].start, message: "'\(c.name)' needs numbers, strings, dates or datetimes, got booleans")
        }
        guard let first = c.arguments[0].node.coerced(to: type)?.anyNode else { return .null }
        return first.extreme(greatest: greatest, c.arguments.dropFirst().map(\.node)) ?? .null
    }

    // MARK: Numbers

    static let numbers: [ExpressionFunction] = [
        .init("abs", 1 ... 1) { c throws(Failure) in TypedNode(NumberUnaryNode(op: .abs, operand: try c.number(0))) },
        .init("floor", 1 ... 1) { c throws(Failure) in TypedNode(NumberUnaryNode(op: .floor, operand: try c.number(0))) },
        .init("ceil", 1 ... 1) { c throws(Failure) in TypedNode(NumberUnaryNode(op: .ceil, operand: try c.number(0))) },
        .init("round", 1 ... 2) { c throws(Failure) in
            if c.count == 1 { return TypedNode(NumberUnaryNode(op: .round, operand: try c.number(0))) }
            return TypedNode(NumberBinaryNode(op: .roundTo, left: try c.number(0), right: try c.number(1)))
        },
    ]
}
