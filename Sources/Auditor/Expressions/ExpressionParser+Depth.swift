/// A bound on how deeply an expression nests, so that parsing, checking and evaluating it
/// (all recursive) never run out of stack: 5,000 '-' or '(' in a row used to crash the process
/// (found by Fuzz/FuzzExpression).
extension ExpressionParser {
    /// The deepest nesting accepted: '(' levels, '-' and 'not' prefixes, and operators chained
    /// in one tree path (`a or b or c` is 3 deep). Hand-written expressions stay far below.
    static let maxDepth = 100

    /// Counts one level of descent at `token`.
    /// - Throws: ``ExpressionLexer/Failure`` at `token` past ``maxDepth`` levels.
    mutating func enter(_ token: ExpressionToken) throws(Failure) {
        nesting += 1
        if nesting > Self.maxDepth { throw Self.tooDeep(at: token.offset) }
    }

    /// Checks a tree's depth; called as operator chains grow, so that no tree much deeper than
    /// the limit is ever built (releasing one recurses too).
    /// - Throws: ``ExpressionLexer/Failure`` at the operator where the tree gets deeper than
    ///   ``maxDepth``.
    func checkDepth(_ root: ExpressionSyntax) throws(Failure) {
        guard root.depth > Self.maxDepth else { return }
        var node = root       // walk down the deepest path, without recursion
        while let child = node.kind.children.first(where: { $0.depth > Self.maxDepth }) {
            node = child
        }
        throw Self.tooDeep(at: node.offset)
    }

    static func tooDeep(at offset: Int) -> Failure {
        Failure(offset: offset, message: "the expression nests more than \(maxDepth) levels deep here; "
                    + "split it into several rules, or write 'x in [a, b, …]' instead of a long chain of 'or'")
    }
}

extension ExpressionSyntax {
    /// A node; its depth is one more than its deepest child's.
    init(kind: Kind, offset: Int, start: Int) {
        self.kind = kind
        self.offset = offset
        self.start = start
        depth = 1 + (kind.children.map(\.depth).max() ?? 0)
    }
}

extension ExpressionSyntax.Kind {
    /// The direct subexpressions.
    var children: [ExpressionSyntax] {
        switch self {
        case .number, .string, .boolean, .null, .attribute: return []
        case .list(let items): return items
        case .not(let x), .negate(let x): return [x]
        case .arithmetic(_, let a, let b), .logical(_, let a, let b), .comparison(_, let a, let b): return [a, b]
        case .membership(let x, let items, _): return [x] + items
        case .between(let x, let low, let high, _): return [x, low, high]
        case .call(_, let args): return args
        }
    }
}
