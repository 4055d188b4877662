/// Parses pattern source text into a ``PatternNode`` tree.
///
/// A recursive-descent parser over the pattern's Unicode scalars; every error carries the
/// scalar offset of the offending construct. Escapes and bracket classes are parsed in
/// `PatternParser+Escapes.swift`.
struct PatternParser {
    /// The largest count allowed in `{n}`, `{n,}` and `{n,m}`.
    static let maxRepetition = 1000
    /// The largest number of character positions a pattern may expand to once counted
    /// repetitions are unrolled (each position is one state of the automaton).
    static let maxPositions = 4096
    /// The deepest group nesting allowed (bounds recursion in the parser and compiler).
    static let maxNesting = 200

    /// The pattern's scalars.
    let scalars: [Unicode.Scalar]
    /// The next scalar to read.
    var index = 0
    /// Names of the named groups seen so far (duplicates are rejected).
    private var groupNames: Set<String> = []
    /// Whether any possessive quantifier was seen (the caller then runs
    /// ``PatternPossessiveCheck``).
    private(set) var hasPossessive = false

    /// A parsed piece and the number of character positions it expands to.
    struct Parsed {
        var node: PatternNode
        var positions: Int
    }

    /// A parser for `source`.
    init(_ source: String) {
        self.scalars = Array(source.unicodeScalars)
    }

    /// Parses the whole pattern.
    /// - Returns: the syntax tree.
    /// - Throws: ``PatternError`` for syntax errors, unsupported features and limits.
    mutating func parse() throws(PatternError) -> PatternNode {
        let result = try parseAlternation(depth: 0)
        if index < scalars.count {
            // parseAlternation only stops early on a ')' it has no group for.
            throw error("unmatched closing parenthesis ')'; escape it as '\\)' to match a literal parenthesis",
                        at: index)
        }
        return result.node
    }

    // MARK: Structure

    /// `branch ('|' branch)*`, stopping at the end or at a `)`.
    private mutating func parseAlternation(depth: Int) throws(PatternError) -> Parsed {
        var branches: [PatternNode] = []
        var positions = 0
        repeat {
            let start = index
            let branch = try parseSequence(depth: depth)
            positions += branch.positions
            try checkSize(positions, at: start)
            branches.append(branch.node)
        } while consume("|")
        return Parsed(node: branches.count == 1 ? branches[0] : .alternation(branches), positions: positions)
    }

    /// A sequence of quantified atoms, stopping at `|`, `)` or the end.
    ///
    /// At the top level a `^` may open a branch and a `$` may close one: in a full match
    /// they are redundant. Anywhere else they are rejected.
    private mutating func parseSequence(depth: Int) throws(PatternError) -> Parsed {
        if depth == 0, peek == "^" { index += 1 }
        var parts: [PatternNode] = []
        var positions = 0
        while let c = peek, c != "|", c != ")" {
            let start = index
            if c == "$" {
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                guard depth == 0, next == nil || next == "|" else {
                    throw error("anchor '$' is only supported at the end of the pattern (where it is redundant)",
                                at: index)
                }
                index += 1
                continue
            }
            if c == "^" {
                throw error("anchor '^' is only supported at the start of the pattern (where it is redundant)",
                            at: index)
            }
            var atom = try parseAtom(depth: depth)
            atom = try parseQuantifiers(on: atom)
            positions += atom.positions
            try checkSize(positions, at: start)
            parts.append(atom.node)
        }
        switch parts.count {
        case 0: return Parsed(node: .empty, positions: 0)
        case 1: return Parsed(node: parts[0], positions: positions)
        default: return Parsed(node: .concat(parts), positions: positions)
        }
    }

    /// One literal, `.`, escape, class or group.
    private mutating func parseAtom(depth: Int) throws(PatternError) -> Parsed {
        let start = index
        guard let c = peek else { return Parsed(node: .empty, positions: 0) }
        switch c {
        case "(":
            return try parseGroup(depth: depth)
        case "[":
            return Parsed(node: .set(try parseClass()), positions: 1)
        case ".":
            index += 1
            return Parsed(node: .set(.dot), positions: 1)
        case "\\":
            switch try parseEscape(inClass: false) {
            case .scalar(let value): return Parsed(node: .set(ScalarSet(scalar: value)), positions: 1)
            case .set(let set): return Parsed(node: .set(set), positions: 1)
            }
        case "*", "+", "?", "{":
            let quantifier = try parseQuantifier()
            throw error("quantifier '\(quantifier.token)' has nothing to repeat", at: start)
        default:
            index += 1
            return Parsed(node: .set(ScalarSet(scalar: c.value)), positions: 1)
        }
    }

    /// `(…)`, `(?:…)` or `(?<name>…)`; every other `(?` form is rejected.
    private mutating func parseGroup(depth: Int) throws(PatternError) -> Parsed {
        let open = index
        index += 1
        if consume("?") {
            try parseGroupPrefix(open: open)
        }
        guard depth < PatternParser.maxNesting else {
            throw error("groups are nested too deeply (the limit is \(PatternParser.maxNesting) levels)", at: open)
        }
        let inner = try parseAlternation(depth: depth + 1)
        guard consume(")") else {
            throw error("unterminated group '\(text(from: open))'; add the missing ')'", at: open)
        }
        return inner
    }

    /// After `(?`: accepts `:` and `<name>`, throws for every other group kind.
    private mutating func parseGroupPrefix(open: Int) throws(PatternError) {
        guard let c = peek else {
            throw error("unterminated group '\(text(from: open))'; add the missing ')'", at: open)
        }
        let next = index + 1 < scalars.count ? scalars[index + 1] : nil
        switch c {
        case ":":
            index += 1
        case "<" where next == "=":
            throw error("lookbehind '(?<=' is not supported", at: open)
        case "<" where next == "!":
            throw error("negative lookbehind '(?<!' is not supported", at: open)
        case "<":
            index += 1
            let nameStart = index
            while let n = peek, PatternParser.isNameScalar(n) {
                index += 1
            }
            let name = text(from: nameStart, to: index)
            let validStart = name.unicodeScalars.first.map { !("0"..."9").contains($0) } ?? false
            guard validStart, name.unicodeScalars.count <= 32, consume(">") else {
                throw error("invalid group name in '\(text(from: open, to: min(index + 1, scalars.count)))'; "
                            + "a name is 1 to 32 ASCII letters, digits or '_' and does not start with a digit",
                            at: open)
            }
            guard groupNames.insert(name).inserted else {
                throw error("duplicate group name '\(name)'", at: open)
            }
        case "=":
            throw error("lookahead '(?=' is not supported", at: open)
        case "!":
            throw error("negative lookahead '(?!' is not supported", at: open)
        case ">":
            throw error("atomic group '(?>' is not supported", at: open)
        case "#":
            throw error("comment group '(?#' is not supported", at: open)
        case "P", "'", "&", "R", "|", "(", "0"..."9", "+":
            throw error("group syntax '(?\(c)' is not supported; use '(…)', '(?:…)' or '(?<name>…)'", at: open)
        default:
            // Inline flags such as (?i), (?-x), (?s:…) or (?^).
            var end = index
            while end < scalars.count,
                  PatternParser.isNameScalar(scalars[end]) || scalars[end] == "-" || scalars[end] == "^" {
                end += 1
            }
            if end > index {
                if end < scalars.count, scalars[end] == ")" || scalars[end] == ":" { end += 1 }
                throw error("inline flags '\(text(from: open, to: end))' are not supported", at: open)
            }
            throw error("group syntax '(?\(c)' is not supported; use '(…)', '(?:…)' or '(?<name>…)'", at: open)
        }
    }

    // MARK: Quantifiers

    /// Applies any quantifier after an atom; a second quantifier in a row is an error.
    private mutating func parseQuantifiers(on atom: Parsed) throws(PatternError) -> Parsed {
        guard let c = peek, c == "*" || c == "+" || c == "?" || c == "{" else { return atom }
        let quantifier = try parseQuantifier()
        if let c = peek, c == "*" || c == "+" || c == "?" || c == "{" {
            let start = index
            let extra = try parseQuantifier()
            throw error("quantifier '\(extra.token)' cannot follow another quantifier; "
                        + "wrap the repeated part in '(?:…)' first", at: start)
        }
        if quantifier.mode == .possessive { hasPossessive = true }
        let copies = quantifier.max ?? Swift.max(quantifier.min, 1)
        let positions = atom.positions * copies
        try checkSize(positions, at: quantifier.offset)
        return Parsed(node: .repetition(atom.node, quantifier), positions: positions)
    }

    /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`, each optionally followed by `?` (lazy) or
    /// `+` (possessive).
    private mutating func parseQuantifier() throws(PatternError) -> Quantifier {
        let start = index
        var bounds: (min: Int, max: Int?)
        switch peek {
        case "*": bounds = (0, nil); index += 1
        case "+": bounds = (1, nil); index += 1
        case "?": bounds = (0, 1); index += 1
        default: bounds = try parseBraces()
        }
        var mode = QuantifierMode.greedy
        if consume("?") {
            mode = .lazy
        } else if consume("+") {
            mode = .possessive
        }
        return Quantifier(min: bounds.min, max: bounds.max, mode: mode, offset: start,
                          token: text(from: start, to: index))
    }

    /// `{n}`, `{n,}` or `{n,m}` at the current `{`, with counts up to ``maxRepetition``.
    private mutating func parseBraces() throws(PatternError) -> (min: Int, max: Int?) {
        let start = index
        index += 1
        let low = parseCount()
        var high = low
        var wellFormed = low != nil
        if wellFormed, consume(",") {
            if peek == "}" {
                high = nil
            } else {
                high = parseCount()
                wellFormed = high != nil
            }
        }
        guard wellFormed, let min = low, consume("}") else {
            var end = start + 1
            while end < scalars.count, scalars[end] != "}", end - start < 12 { end += 1 }
            if end < scalars.count, scalars[end] == "}" { end += 1 }
            throw error("invalid repetition '\(text(from: start, to: end))'; write '{n}', '{n,}' or '{n,m}', "
                        + "or escape a literal brace as '\\{'", at: start)
        }
        let token = text(from: start, to: index)
        if Swift.max(min, high ?? 0) > PatternParser.maxRepetition {
            throw error("repetition count in '\(token)' exceeds the limit of \(PatternParser.maxRepetition)",
                        at: start)
        }
        if let high, high < min {
            throw error("invalid repetition '\(token)': the minimum is larger than the maximum", at: start)
        }
        return (min, high)
    }

    /// A decimal count, saturating far above any limit; `nil` when no digit follows.
    private mutating func parseCount() -> Int? {
        var value: Int?
        while let c = peek, ("0"..."9").contains(c) {
            value = Swift.min((value ?? 0) * 10 + Int(c.value - 0x30), 1_000_000)
            index += 1
        }
        return value
    }

    // MARK: Helpers

    /// `[A-Za-z0-9_]`.
    static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_"
    }

    /// The scalar at the cursor, if any.
    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    /// Skips `scalar` if it is next.
    mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
        guard peek == scalar else { return false }
        index += 1
        return true
    }

    /// The pattern text from `start` up to `end` (default: the end), shortened with `…`
    /// past 40 scalars, for quoting in a message.
    func text(from start: Int, to end: Int? = nil) -> String {
        let end = Swift.max(start, Swift.min(end ?? scalars.count, scalars.count))
        let limit = Swift.min(end, start + 40)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<limit])
        return String(view) + (limit < end ? "…" : "")
    }

    /// An error at a scalar offset.
    func error(_ message: String, at offset: Int) -> PatternError {
        PatternError(message: message, offset: offset)
    }

    /// Throws when a piece expands to more than ``maxPositions`` positions.
    private func checkSize(_ positions: Int, at offset: Int) throws(PatternError) {
        if positions > PatternParser.maxPositions {
            throw error("pattern is too large: its repetitions expand to more than \(PatternParser.maxPositions) "
                        + "character positions; use smaller counts", at: offset)
        }
    }
}
