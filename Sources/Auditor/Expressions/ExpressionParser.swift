/// The syntax tree of an expression, before names are bound and types checked.
struct ExpressionSyntax: Sendable {
    indirect enum Kind: Sendable {
        case number(Double)
        case string(String)
        case boolean(Bool)
        case null
        case attribute(String)
        /// A `[a, b]` list (only valid after `in`; the checker says so otherwise).
        case list([ExpressionSyntax])
        case not(ExpressionSyntax)
        case negate(ExpressionSyntax)
        case arithmetic(ArithmeticOperator, ExpressionSyntax, ExpressionSyntax)
        case logical(LogicalOperator, ExpressionSyntax, ExpressionSyntax)
        case comparison(ComparisonOperator, ExpressionSyntax, ExpressionSyntax)
        /// `value [not] in [items]`.
        case membership(ExpressionSyntax, [ExpressionSyntax], negated: Bool)
        /// `value [not] between low and high`.
        case between(ExpressionSyntax, ExpressionSyntax, ExpressionSyntax, negated: Bool)
        case call(String, [ExpressionSyntax])
    }

    var kind: Kind
    /// Byte offset of the token that names this node (operator, function name, literal);
    /// errors about the node point here.
    var offset: Int
    /// Byte offset of the node's first character.
    var start: Int
    /// The nodes on the longest path down to a leaf (1 for a leaf), at most ``ExpressionParser/maxDepth``.
    let depth: Int
}

enum ArithmeticOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

enum LogicalOperator: String, Sendable {
    case and, or
}

enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="

    /// Whether it orders values (as opposed to testing equality).
    var isOrdering: Bool { self != .equal && self != .notEqual }
}

/// A recursive-descent parser for the grammar in `docs/expressions.md`:
///
///     or         := and ('or' and)*
///     and        := not ('and' not)*
///     not        := 'not' not | comparison
///     comparison := additive ( compare additive | 'not'? 'in' list | 'not'? 'between' additive 'and' additive )?
///     additive   := multiplicative (('+' | '-') multiplicative)*
///     multiplicative := unary (('*' | '/' | '%') unary)*
///     unary      := '-' unary | primary
///     primary    := literal | name | name '(' args ')' | '`' name '`' | '(' or ')' | list
struct ExpressionParser {
    typealias Failure = ExpressionLexer.Failure

    private let tokens: [ExpressionToken]
    private let source: [UInt8]
    private var p = 0
    /// How deep the descent is now (see ``enter(_:)``).
    var nesting = 0

    init(tokens: [ExpressionToken], source: String) {
        self.tokens = tokens
        self.source = Array(source.utf8)
    }

    /// Parses the whole token stream.
    /// - Throws: ``ExpressionLexer/Failure`` at the first token that does not fit the grammar.
    mutating func parse() throws(Failure) -> ExpressionSyntax {
        if case .end = current.kind { throw Failure(offset: 0, message: "the expression is empty") }
        let e = try parseOr()
        try checkDepth(e)
        guard case .end = current.kind else {
            var m = "unexpected \(describe(current)) after a complete expression"
            if case .name(let n) = current.kind, n.lowercased() == "is" {
                m += "; write isNull(x) or present(x) instead of 'x is null'"
            } else if case .name(let n) = current.kind, let k = ExpressionToken.Keyword(rawValue: n.lowercased()) {
                m += "; keywords are lower case: write '\(k.rawValue)'"
            } else if case .keyword = current.kind {
            } else {
                m += "; is an operator or a comma missing?"
            }
            throw Failure(offset: current.offset, message: m)
        }
        return e
    }

    private var current: ExpressionToken { tokens[p] }

    private mutating func advance() -> ExpressionToken {
        let t = tokens[p]
        if p < tokens.count - 1 { p += 1 }
        return t
    }

    private func isKeyword(_ k: ExpressionToken.Keyword, at q: Int? = nil) -> Bool {
        let t = tokens[min(q ?? p, tokens.count - 1)]
        if case .keyword(let x) = t.kind { return x == k }
        return false
    }

    private func isSymbol(_ s: ExpressionToken.Symbol) -> Bool {
        if case .symbol(let x) = current.kind { return x == s }
        return false
    }

    /// The token as the user wrote it, quoted, for messages.
    func describe(_ t: ExpressionToken) -> String {
        switch t.kind {
        case .end: return "end of expression"
        case .string: return "string"
        case .number, .name, .quotedName, .keyword, .symbol:
            let next = tokens.first { $0.offset > t.offset }?.offset ?? source.count
            var end = t.offset
            while end < next, end < source.count, source[end] != 0x20, source[end] != 0x0A { end += 1 }
            return "'\(String(decoding: source[t.offset ..< max(end, t.offset + 1)], as: UTF8.self))'"
        }
    }

    private mutating func parseOr() throws(Failure) -> ExpressionSyntax {
        var left = try parseAnd()
        while isKeyword(.or) {
            let op = advance()
            let right = try parseAnd()
            left = ExpressionSyntax(kind: .logical(.or, left, right), offset: op.offset, start: left.start)
            try checkDepth(left)
        }
        return left
    }

    private mutating func parseAnd() throws(Failure) -> ExpressionSyntax {
        var left = try parseNot()
        while isKeyword(.and) {
            let op = advance()
            let right = try parseNot()
            left = ExpressionSyntax(kind: .logical(.and, left, right), offset: op.offset, start: left.start)
            try checkDepth(left)
        }
        return left
    }

    private mutating func parseNot() throws(Failure) -> ExpressionSyntax {
        if isKeyword(.not) {
            let op = advance()
            try enter(op)
            let operand = try parseNot()
            nesting -= 1
            return ExpressionSyntax(kind: .not(operand), offset: op.offset, start: op.offset)
        }
        return try parseComparison()
    }

    private func comparisonOperator() -> ComparisonOperator? {
        guard case .symbol(let s) = current.kind else { return nil }
        switch s {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterEqual
        default: return nil
        }
    }

    private mutating func parseComparison() throws(Failure) -> ExpressionSyntax {
        let left = try parseAdditive()
        var result: ExpressionSyntax
        if let op = comparisonOperator() {
            let t = advance()
            let right = try parseAdditive()
            result = ExpressionSyntax(kind: .comparison(op, left, right), offset: t.offset, start: left.start)
        } else if isKeyword(.in) || isKeyword(.between) || (isKeyword(.not) && (isKeyword(.in, at: p + 1) || isKeyword(.between, at: p + 1))) {
            let negated = isKeyword(.not)
            if negated { _ = advance() }
            let t = advance()
            if case .keyword(.in) = t.kind {
                let items = try parseList(after: "'in'")
                result = ExpressionSyntax(kind: .membership(left, items, negated: negated), offset: t.offset, start: left.start)
            } else {
                let low = try parseAdditive()
                guard isKeyword(.and) else {
                    throw Failure(offset: current.offset, message: "expected 'and' in 'between … and …', found \(describe(current))")
                }
                _ = advance()
                let high = try parseAdditive()
                result = ExpressionSyntax(kind: .between(left, low, high, negated: negated), offset: t.offset, start: left.start)
            }
        } else {
            return left
        }
        if comparisonOperator() != nil || isKeyword(.in) || isKeyword(.between) {
            throw Failure(offset: current.offset, message: "comparisons cannot be chained; combine them with 'and' (e.g. 'a < b and b < c')")
        }
        return result
    }

    private mutating func parseAdditive() throws(Failure) -> ExpressionSyntax {
        var left = try parseMultiplicative()
        while isSymbol(.plus) || isSymbol(.minus) {
            let t = advance()
            let op: ArithmeticOperator = isPlus(t) ? .add : .subtract
            let right = try parseMultiplicative()
            left = ExpressionSyntax(kind: .arithmetic(op, left, right), offset: t.offset, start: left.start)
            try checkDepth(left)
        }
        return left
    }

    private func isPlus(_ t: ExpressionToken) -> Bool {
        if case .symbol(.plus) = t.kind { return true }
        return false
    }

    private mutating func parseMultiplicative() throws(Failure) -> ExpressionSyntax {
        var left = try parseUnary()
        while isSymbol(.star) || isSymbol(.slash) || isSymbol(.percent) {
            let t = advance()
            let op: ArithmeticOperator
            switch t.kind {
            case .symbol(.star): op = .multiply
            case .symbol(.slash): op = .divide
            default: op = .remainder
            }
            let right = try parseUnary()
            left = ExpressionSyntax(kind: .arithmetic(op, left, right), offset: t.offset, start: left.start)
            try checkDepth(left)
        }
        return left
    }

    private mutating func parseUnary() throws(Failure) -> ExpressionSyntax {
        try enter(current)     // every '(' and '-' passes here
        defer { nesting -= 1 }
        if isSymbol(.minus) {
            let t = advance()
            let operand = try parseUnary()
            if case .number(let v) = operand.kind {   // fold '-3' into a literal
                return ExpressionSyntax(kind: .number(-v), offset: t.offset, start: t.offset)
            }
            return ExpressionSyntax(kind: .negate(operand), offset: t.offset, start: t.offset)
        }
        if isKeyword(.not) {
            throw Failure(offset: current.offset, message: "'not' applies to a whole condition here; put it in parentheses, e.g. '(not x)'")
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws(Failure) -> ExpressionSyntax {
        let t = current
        switch t.kind {
        case .number(let v):
            _ = advance()
            return ExpressionSyntax(kind: .number(v), offset: t.offset, start: t.offset)
        case .string(let s):
            _ = advance()
            return ExpressionSyntax(kind: .string(s), offset: t.offset, start: t.offset)
        case .keyword(.true), .keyword(.false):
            _ = advance()
            return ExpressionSyntax(kind: .boolean(t.kind == .keyword(.true)), offset: t.offset, start: t.offset)
        case .keyword(.null):
            _ = advance()
            return ExpressionSyntax(kind: .null, offset: t.offset, start: t.offset)
        case .quotedName(let n):
            _ = advance()
            return ExpressionSyntax(kind: .attribute(n), offset: t.offset, start: t.offset)
        case .name(let n):
            _ = advance()
            if isSymbol(.leftParen) {
                _ = advance()
                var args = [ExpressionSyntax]()
                if !isSymbol(.rightParen) {
                    while true {
                        args.append(try parseOr())
                        if isSymbol(.comma) {
                            _ = advance()
                            continue
                        }
                        break
                    }
                }
                try expectClose(.rightParen, opener: t, what: "the argument list of '\(n)'")
                return ExpressionSyntax(kind: .call(n, args), offset: t.offset, start: t.offset)
            }
            return ExpressionSyntax(kind: .attribute(n), offset: t.offset, start: t.offset)
        case .symbol(.leftParen):
            _ = advance()
            var inner = try parseOr()
            try expectClose(.rightParen, opener: t, what: "'('")
            inner.start = t.offset
            return inner
        case .symbol(.leftBracket):
            let items = try parseList(after: "")
            return ExpressionSyntax(kind: .list(items), offset: t.offset, start: t.offset)
        default:
            throw Failure(offset: t.offset, message: "expected a value, a name or '(', found \(describe(t))")
        }
    }

    /// `[a, b, …]` (or SQL's `(a, b, …)` after `in`); a trailing comma is allowed.
    private mutating func parseList(after what: String) throws(Failure) -> [ExpressionSyntax] {
        let open = current
        let close: ExpressionToken.Symbol
        if isSymbol(.leftBracket) {
            close = .rightBracket
        } else if isSymbol(.leftParen), !what.isEmpty {
            close = .rightParen
        } else {
            throw Failure(offset: open.offset, message: "expected a list '[…]' after \(what), found \(describe(open))")
        }
        _ = advance()
        var items = [ExpressionSyntax]()
        while !isSymbol(close) {
            items.append(try parseOr())
            guard isSymbol(.comma) else { break }
            _ = advance()
        }
        try expectClose(close, opener: open, what: "the list")
        return items
    }

    private mutating func expectClose(_ s: ExpressionToken.Symbol, opener: ExpressionToken, what: String) throws(Failure) {
        guard isSymbol(s) else {
            let expected = s == .rightParen ? "')'" : "']'"
            if case .end = current.kind {
                throw Failure(offset: opener.offset, message: "\(what) is not closed; add \(expected)")
            }
            if what == "'('" {
                throw Failure(offset: current.offset, message: "expected ')' to close '(', found \(describe(current))")
            }
            throw Failure(offset: current.offset, message: "expected \(expected) or ',' in \(what), found \(describe(current))")
        }
        _ = advance()
    }
}
