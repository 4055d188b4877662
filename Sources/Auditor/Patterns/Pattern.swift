/// A compiled regular expression for the `pattern:` constraint: a full, case-sensitive
/// match over Unicode scalars, in time linear in the text (no backtracking, ever).
///
/// ## Syntax (PCRE/ICU meanings)
/// - Literals (any Unicode scalar); `.` (any scalar except `\n`).
/// - Escapes: `\d \D \w \W \s \S` with ASCII meanings (`\d` = `[0-9]`, `\w` = `[A-Za-z0-9_]`,
///   `\s` = `[ \t\n\r\f\v]`); `\t \n \r \f \v` (`\v` is U+000B); `\xHH`, `\x{H…}`, `\uHHHH`;
///   any escaped ASCII punctuation or space stands for itself (`\. \\ \- \[ \] \/ …`).
/// - Classes: `[a-z]`, `[^…]`, ranges over scalars (`[À-ÖØ-öø-ÿ]`), escapes inside;
///   `-` is literal first or last, `]` is literal first.
/// - Groups `(…)`, `(?:…)`, `(?<name>…)` (all just group; nothing is captured);
///   alternation `|`.
/// - Quantifiers `* + ? {n} {n,} {n,m}` (counts up to 1,000), lazy (`*?`) and possessive
///   (`*+`) forms. Lazy gives the same answer as greedy for a full match. Possessive is
///   treated as greedy, which is only exact when it repeats one class that cannot also start
///   what follows (`[^,]*+,`), or repeats a fixed count of something whose matches all have
///   one length (`[a-z]{3}+`); any other possessive quantifier is rejected, since PCRE's
///   answer would differ (`a*+a` and `(?:a|ab){1}+c` match nothing there).
/// - Python's `re` with `re.ASCII` and PCRE without `(*UCP)` agree with these meanings; Python's
///   default `re` and ICU have Unicode `\d \w \s`, and ICU's `.` also excludes `\r`, U+0085,
///   U+2028 and U+2029 (see `PatternPythonCrossCheckTests`).
/// - `^` at the start and `$` at the end of the pattern (or of a top-level branch) are
///   accepted and redundant.
///
/// Backreferences, lookaround, atomic groups, inline flags, `\b`, `\A`, `\z`, `\p{…}`,
/// nested or POSIX classes and `&&` are rejected with a ``PatternError``.
///
/// ## Matching
/// The text must match as a whole: `abc` does not match `"abcd"`, and unlike PCRE's `$`
/// a trailing `"\n"` is not forgiven. Ill-formed UTF-8 never matches.
///
/// A pattern compiles to one of three matchers: a class-run check for one repeated class,
/// a table-driven deterministic automaton (up to 4,096 states), or a bitset simulation of
/// the nondeterministic automaton when the deterministic one would be larger.
///
/// A `Pattern` is immutable and safe to share between threads.
public struct Pattern: Sendable {
    /// The source text, as given.
    public let source: String
    /// The matcher chosen at compile time.
    let matcher: Matcher

    /// The three matching strategies, fastest first.
    enum Matcher: Sendable {
        case classRun(PatternClassRun)
        case dfa(PatternDFA)
        case nfa(PatternNFA)
    }

    /// Which strategy a pattern uses (for tests and diagnostics).
    enum Strategy: Sendable, Equatable {
        case classRun, dfa, nfa
    }

    /// Compiles a pattern.
    /// - Parameter source: the pattern text.
    /// - Throws: ``PatternError`` for a syntax error, an unsupported feature or a pattern too
    ///   large to compile; its `offset` counts Unicode scalars from the start of `source`.
    public init(_ source: String) throws(PatternError) {
        try self.init(source, maxDFAStates: PatternDFA.maxStates, allowClassRun: true)
    }

    /// Compiles a pattern with explicit limits (tests use it to force each strategy).
    /// - Parameters:
    ///   - source: the pattern text.
    ///   - maxDFAStates: the deterministic automaton's state limit; 0 forces the simulation.
    ///   - allowClassRun: whether the one-class fast path may be used.
    init(_ source: String, maxDFAStates: Int, allowClassRun: Bool) throws(PatternError) {
        var parser = PatternParser(source)
        let tree = try parser.parse()
        if parser.hasPossessive { try PatternPossessiveCheck.validate(tree) }
        self.source = source
        if allowClassRun, let run = PatternClassRun(tree) {
            matcher = .classRun(run)
            return
        }
        let automaton = try PatternAutomaton(tree)
        if maxDFAStates > 0, let dfa = PatternDFA(automaton, maxStates: maxDFAStates) {
            matcher = .dfa(dfa)
        } else {
            matcher = .nfa(PatternNFA(automaton: automaton))
        }
    }

    /// The strategy chosen at compile time.
    var strategy: Strategy {
        switch matcher {
        case .classRun: return .classRun
        case .dfa: return .dfa
        case .nfa: return .nfa
        }
    }

    /// Whether the whole UTF-8 text matches (as if anchored `^…$`).
    /// - Parameter utf8: the text's bytes; ill-formed UTF-8 never matches.
    /// - Returns: `true` on a full match.
    /// - Complexity: O(n) in the text's length; no allocation for most patterns.
    @inline(__always)
    public func matches(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        switch matcher {
        case .classRun(let run): return run.matches(utf8)
        case .dfa(let dfa): return dfa.matches(utf8)
        case .nfa(let nfa): return nfa.matches(utf8)
        }
    }

    /// Whether the whole string matches (as if anchored `^…$`).
    /// - Parameter string: the text.
    /// - Returns: `true` on a full match.
    /// - Complexity: O(n) in the string's UTF-8 length.
    public func matches(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { matches($0) }
    }
}

extension Pattern: Hashable, CustomStringConvertible {
    /// Two patterns are equal when their sources are: the same source always compiles to the
    /// same matcher.
    public static func == (a: Pattern, b: Pattern) -> Bool { a.source == b.source }

    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    /// The source text.
    public var description: String { source }
}

/// Why a pattern does not compile.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in sentence case, quoting the bad token as `'…'` and suggesting a fix
    /// where one is likely: `unterminated character class '[a-z'; add the missing ']'`.
    public var message: String
    /// Where: the 0-based offset, in Unicode scalars, of the offending construct in the
    /// pattern's source (equal to the character offset for ASCII patterns).
    public var offset: Int

    /// An error with a message and offset.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// `message (at offset N)`.
    public var description: String { "\(message) (at offset \(offset))" }
}
