/// A checked node with its static type: the only place where the type system of the
/// expression language meets Swift's. Every case holds a node computing that column type.
enum TypedNode: Sendable {
    case boolean(any ExpressionNode<BoolColumn>)
    case number(any ExpressionNode<NumberColumn>)
    case string(any ExpressionNode<StringColumn>)
    case date(any ExpressionNode<DateColumn>)
    case datetime(any ExpressionNode<DatetimeColumn>)
    /// The literal `null` before its context gives it a type.
    case null

    /// Wraps a concrete node in the case of its column type.
    init<N: ExpressionNode>(_ node: N) {
        self = N.Column.typed(node)
    }

    var type: ExpressionType {
        switch self {
        case .boolean: return .boolean
        case .number: return .number
        case .string: return .string
        case .date: return .date
        case .datetime: return .datetime
        case .null: return .null
        }
    }

    /// The node as an unconstrained existential, to be opened by a generic function
    /// (the extension on ``ExpressionNode`` below); `nil` for an untyped null.
    var anyNode: (any ExpressionNode)? {
        switch self {
        case .boolean(let n): return n
        case .number(let n): return n
        case .string(let n): return n
        case .date(let n): return n
        case .datetime(let n): return n
        case .null: return nil
        }
    }

    /// This node as `type`: itself when it has that type, a typed null constant when it is the
    /// untyped null; `nil` otherwise (no implicit conversions).
    func coerced(to type: ExpressionType) -> TypedNode? {
        if self.type == type { return self }
        guard case .null = self else { return nil }
        switch type {
        case .boolean: return TypedNode(ConstantNode(value: BoolColumn.nulls(1)))
        case .number: return TypedNode(ConstantNode(value: NumberColumn.nulls(1)))
        case .string: return TypedNode(ConstantNode(value: StringColumn.nulls(1)))
        case .date: return TypedNode(ConstantNode(value: DateColumn.nulls(1)))
        case .datetime: return TypedNode(ConstantNode(value: DatetimeColumn.nulls(1)))
        case .null: return self
        case .list: return nil
        }
    }

    /// The node computing column type `C`, if this node has that type.
    func node<C: ExpressionColumn>(_ type: C.Type) -> (any ExpressionNode<C>)? {
        C.untyped(self)
    }

    /// Evaluated once, as a constant (for nodes that read no attribute).
    func folded() -> TypedNode {
        anyNode?.folded() ?? self
    }
}

extension ExpressionNode {
    /// This node evaluated in the one-row constant context, as a constant node.
    func folded() -> TypedNode {
        TypedNode(ConstantNode(value: evaluate(EvaluationContext.constant())))
    }

    /// The constant value of this node (for nodes that read no attribute).
    func constantValue() -> Column {
        evaluate(EvaluationContext.constant())
    }

    /// The operands' nodes if every one has this node's type (after coercing nulls).
    func peers(_ others: [TypedNode]) -> [any ExpressionNode<Column>]? {
        var nodes: [any ExpressionNode<Column>] = [self]
        for o in others {
            guard let n = o.coerced(to: Column.expressionType)?.node(Column.self) else { return nil }
            nodes.append(n)
        }
        return nodes
    }

    func comparison(_ op: ComparisonOperator, _ other: TypedNode) -> TypedNode? {
        guard let nodes = peers([other]) else { return nil }
        return TypedNode(ComparisonNode<Column>(op: op, left: nodes[0], right: nodes[1]))
    }

    func presence(present: Bool) -> TypedNode {
        TypedNode(PresenceNode<Column>(operand: self, present: present))
    }

    func coalescing(_ others: [TypedNode]) -> TypedNode? {
        peers(others).map { TypedNode(CoalesceNode<Column>(operands: $0)) }
    }

    func extreme(greatest: Bool, _ others: [TypedNode]) -> TypedNode? {
        peers(others).map { TypedNode(ExtremeNode<Column>(greatest: greatest, operands: $0)) }
    }

    func conditional(_ condition: any ExpressionNode<BoolColumn>, otherwise: TypedNode) -> TypedNode? {
        peers([otherwise]).map { TypedNode(ConditionalNode<Column>(condition: condition, then: $0[0], otherwise: $0[1])) }
    }
}

// MARK: - Column types to typed nodes and back

extension BoolColumn {
    static func typed(_ node: any ExpressionNode<Self>) -> TypedNode { .boolean(node) }
    static func untyped(_ t: TypedNode) -> (any ExpressionNode<Self>)? {
        if case .boolean(let n) = t { return n }
        return nil
    }
}

extension NumberColumn {
    static func typed(_ node: any ExpressionNode<Self>) -> TypedNode { .number(node) }
    static func untyped(_ t: TypedNode) -> (any ExpressionNode<Self>)? {
        if case .number(let n) = t { return n }
        return nil
    }
}

extension StringColumn {
    static func typed(_ node: any ExpressionNode<Self>) -> TypedNode { .string(node) }
    static func untyped(_ t: TypedNode) -> (any ExpressionNode<Self>)? {
        if case .string(let n) = t { return n }
        return nil
    }
}

extension DateColumn {
    static func typed(_ node: any ExpressionNode<Self>) -> TypedNode { .date(node) }
    static func untyped(_ t: TypedNode) -> (any ExpressionNode<Self>)? {
        if case .date(let n) = t { return n }
        return nil
    }
}

extension DatetimeColumn {
    static func typed(_ node: any ExpressionNode<Self>) -> TypedNode { .datetime(node) }
    static func untyped(_ t: TypedNode) -> (any ExpressionNode<Self>)? {
        if case .datetime(let n) = t { return n }
        return nil
    }
}
