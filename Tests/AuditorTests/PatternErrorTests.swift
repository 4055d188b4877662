import Testing
@testable import Auditor

/// A pattern that must not compile, with the exact error.
struct PatternErrorCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    var offset: Int
    var message: String

    init(_ pattern: String, _ offset: Int, _ message: String) {
        self.pattern = pattern
        self.offset = offset
        self.message = message
    }

    var testDescription: String { "/\(pattern)/" }
}

@Suite("Pattern errors")
struct PatternErrorTests {
    static let syntaxErrors: [PatternErrorCase] = [
        PatternErrorCase("[a-z", 0, "unterminated character class '[a-z'; add the missing ']'"),
        PatternErrorCase("ab[^", 2, "unterminated character class '[^'; add the missing ']'"),
        PatternErrorCase("[]", 0, "unterminated character class '[]'; add the missing ']'"),
        PatternErrorCase("x(ab", 1, "unterminated group '(ab'; add the missing ')'"),
        PatternErrorCase("((a)", 0, "unterminated group '((a)'; add the missing ')'"),
        PatternErrorCase("(?", 0, "unterminated group '(?'; add the missing ')'"),
        PatternErrorCase("ab)", 2,
                         "unmatched closing parenthesis ')'; escape it as '\\)' to match a literal parenthesis"),
        PatternErrorCase("*a", 0, "quantifier '*' has nothing to repeat"),
        PatternErrorCase("a|+", 2, "quantifier '+' has nothing to repeat"),
        PatternErrorCase("(?:?)", 3, "quantifier '?' has nothing to repeat"),
        PatternErrorCase("^*", 1, "quantifier '*' has nothing to repeat"),
        PatternErrorCase("{2}", 0, "quantifier '{2}' has nothing to repeat"),
        PatternErrorCase("a**", 2, "quantifier '*' cannot follow another quantifier; wrap the repeated part in '(?:…)' first"),
        PatternErrorCase("a{2}{3}", 4,
                         "quantifier '{3}' cannot follow another quantifier; wrap the repeated part in '(?:…)' first"),
        PatternErrorCase("a+??", 3,
                         "quantifier '?' cannot follow another quantifier; wrap the repeated part in '(?:…)' first"),
        PatternErrorCase("a{", 1,
                         "invalid repetition '{'; write '{n}', '{n,}' or '{n,m}', or escape a literal brace as '\\{'"),
        PatternErrorCase("a{x}", 1,
                         "invalid repetition '{x}'; write '{n}', '{n,}' or '{n,m}', or escape a literal brace as '\\{'"),
        PatternErrorCase("a{,3}", 1,
                         "invalid repetition '{,3}'; write '{n}', '{n,}' or '{n,m}', or escape a literal brace as '\\{'"),
        PatternErrorCase("a{2,", 1,
                         "invalid repetition '{2,'; write '{n}', '{n,}' or '{n,m}', or escape a literal brace as '\\{'"),
        PatternErrorCase("a{3,2}", 1, "invalid repetition '{3,2}': the minimum is larger than the maximum"),
        PatternErrorCase("a{1001}", 1, "repetition count in '{1001}' exceeds the limit of 1000"),
        PatternErrorCase("a{1,99999999999}", 1, "repetition count in '{1,99999999999}' exceeds the limit of 1000"),
        PatternErrorCase("(a{1000}){5}", 9,
                         "pattern is too large: its repetitions expand to more than 4096 character positions; "
                         + "use smaller counts"),
        PatternErrorCase("[z-a]", 1, "range out of order 'z-a' in character class"),
        PatternErrorCase("[\\d-z]", 1,
                         "invalid range '\\d-z': a class shorthand cannot be a range endpoint; escape a literal hyphen as '\\-'"),
        PatternErrorCase("[a-\\w]", 1,
                         "invalid range 'a-\\w': a class shorthand cannot be a range endpoint; escape a literal hyphen as '\\-'"),
        PatternErrorCase("[a-c-e]", 4, "ambiguous '-' after range 'a-c'; escape a literal hyphen as '\\-'"),
        PatternErrorCase("[[:alpha:]]", 1,
                         "'[' inside a character class is not supported (POSIX class syntax differs between engines); "
                         + "escape a literal bracket as '\\['"),
        PatternErrorCase("[a[b]]", 2,
                         "'[' inside a character class is not supported (nested class syntax differs between engines); "
                         + "escape a literal bracket as '\\['"),
        PatternErrorCase("[a&&b]", 2, "class intersection '&&' is not supported; escape a literal ampersand as '\\&'"),
        PatternErrorCase("ab\\", 2, "pattern ends with an incomplete escape '\\'; write '\\\\' for a literal backslash"),
        PatternErrorCase("\\xZ1", 0, "invalid hexadecimal escape '\\xZ'; write '\\xHH' with 2 hex digits"),
        PatternErrorCase("\\x4", 0, "invalid hexadecimal escape '\\x4'; write '\\xHH' with 2 hex digits"),
        PatternErrorCase("\\u12G4", 0, "invalid hexadecimal escape '\\u12G'; write '\\uHHHH' with 4 hex digits"),
        PatternErrorCase("\\x{41", 0, "invalid hexadecimal escape '\\x{41'; write '\\x{H…}' with 1 to 6 hex digits"),
        PatternErrorCase("\\x{}", 0, "invalid hexadecimal escape '\\x{}'; write '\\x{H…}' with 1 to 6 hex digits"),
        PatternErrorCase("\\x{110000}", 0, "escape '\\x{110000}' is not a valid Unicode scalar value"),
        PatternErrorCase("\\uD800", 0, "escape '\\uD800' is not a valid Unicode scalar value"),
        PatternErrorCase("a\\q", 1, "escape '\\q' is not supported"),
        PatternErrorCase("\\é", 0, "escape '\\é' is not supported"),
        PatternErrorCase("(?<1x>a)", 0,
                         "invalid group name in '(?<1x>'; a name is 1 to 32 ASCII letters, digits or '_' and does not start with a digit"),
        PatternErrorCase("(?<>a)", 0,
                         "invalid group name in '(?<>'; a name is 1 to 32 ASCII letters, digits or '_' and does not start with a digit"),
        PatternErrorCase("(?<a-b>x)", 0,
                         "invalid group name in '(?<a-'; a name is 1 to 32 ASCII letters, digits or '_' and does not start with a digit"),
        PatternErrorCase("(?<n>a)(?<n>b)", 7, "duplicate group name 'n'"),
        PatternErrorCase("a^", 1, "anchor '^' is only supported at the start of the pattern (where it is redundant)"),
        PatternErrorCase("(^a)", 1, "anchor '^' is only supported at the start of the pattern (where it is redundant)"),
        PatternErrorCase("a$b", 1, "anchor '$' is only supported at the end of the pattern (where it is redundant)"),
        PatternErrorCase("(a$)", 2, "anchor '$' is only supported at the end of the pattern (where it is redundant)"),
        PatternErrorCase("é[ü", 1, "unterminated character class '[ü'; add the missing ']'"),
    ]

    static let unsupportedFeatures: [PatternErrorCase] = [
        PatternErrorCase("(a)\\1", 3, "backreference '\\1' is not supported"),
        PatternErrorCase("(?<n>a)\\k<n>", 7, "backreference '\\k' is not supported"),
        PatternErrorCase("a(?=b)", 1, "lookahead '(?=' is not supported"),
        PatternErrorCase("a(?!b)", 1, "negative lookahead '(?!' is not supported"),
        PatternErrorCase("(?<=a)b", 0, "lookbehind '(?<=' is not supported"),
        PatternErrorCase("(?<!a)b", 0, "negative lookbehind '(?<!' is not supported"),
        PatternErrorCase("(?>a+)b", 0, "atomic group '(?>' is not supported"),
        PatternErrorCase("(?i)abc", 0, "inline flags '(?i)' are not supported"),
        PatternErrorCase("x(?i-s:abc)", 1, "inline flags '(?i-s:' are not supported"),
        PatternErrorCase("(?#note)a", 0, "comment group '(?#' is not supported"),
        PatternErrorCase("(?P<n>a)", 0, "group syntax '(?P' is not supported; use '(…)', '(?:…)' or '(?<name>…)'"),
        PatternErrorCase("(?|a)", 0, "group syntax '(?|' is not supported; use '(…)', '(?:…)' or '(?<name>…)'"),
        PatternErrorCase("a\\b", 1, "word boundary '\\b' is not supported"),
        PatternErrorCase("\\Ba", 0, "word boundary '\\B' is not supported"),
        PatternErrorCase("[\\b]", 1, "escape '\\b' is not supported in a character class; use '\\x08' for a backspace"),
        PatternErrorCase("\\Aabc", 0, "anchor '\\A' is not supported; a pattern always matches the whole value"),
        PatternErrorCase("abc\\z", 3, "anchor '\\z' is not supported; a pattern always matches the whole value"),
        PatternErrorCase("\\p{L}+", 0,
                         "Unicode property '\\p{L}' is not supported; list the ranges instead, such as 'À-ÖØ-öø-ÿ'"),
        PatternErrorCase("[\\PL]", 1,
                         "Unicode property '\\PL' is not supported; list the ranges instead, such as 'À-ÖØ-öø-ÿ'"),
        PatternErrorCase("\\Qa.b\\E", 0, "quoting '\\Q' is not supported; escape each metacharacter with '\\'"),
        PatternErrorCase("\\0", 0, "octal escape '\\0' is not supported; use '\\x00'"),
        PatternErrorCase("a*+a", 1,
                         "possessive quantifier '*+' is not supported here: what follows can start with a character "
                         + "it repeats, so it would not match where '*' does; use '*'"),
        PatternErrorCase("[a-z]{1,3}+[m-p]", 5,
                         "possessive quantifier '{1,3}+' is not supported here: what follows can start with a character "
                         + "it repeats, so it would not match where '{1,3}' does; use '{1,3}'"),
        PatternErrorCase("(?:[a-z]++)*", 8,
                         "possessive quantifier '++' is not supported here: what follows can start with a character "
                         + "it repeats, so it would not match where '+' does; use '+'"),
        PatternErrorCase("(ab)++", 4,
                         "possessive quantifier '++' is only supported on a single character or class; use '+'"),
        // Issue 13 §6: PCRE keeps the first branch that matched ('a') and never retries 'ab'.
        PatternErrorCase("(?:a|ab){1}+c", 8,
                         "possessive quantifier '{1}+' is not supported here: it repeats a group whose matches have "
                         + "different lengths, and PCRE would never retry a shorter or longer one; use '{1}'"),
        PatternErrorCase("x(a*){2}+", 5,
                         "possessive quantifier '{2}+' is not supported here: it repeats a group whose matches have "
                         + "different lengths, and PCRE would never retry a shorter or longer one; use '{2}'"),
    ]

    @Test(arguments: syntaxErrors) func syntaxError(_ testCase: PatternErrorCase) {
        #expect(throws: PatternError(message: testCase.message, offset: testCase.offset)) {
            try Pattern(testCase.pattern)
        }
    }

    @Test(arguments: unsupportedFeatures) func unsupportedFeature(_ testCase: PatternErrorCase) {
        #expect(throws: PatternError(message: testCase.message, offset: testCase.offset)) {
            try Pattern(testCase.pattern)
        }
    }

    @Test func descriptionNamesTheOffset() {
        let error = PatternError(message: "unterminated character class '[a-z'", offset: 0)
        #expect(error.description == "unterminated character class '[a-z' (at offset 0)")
    }

    @Test func deepNestingIsRejected() {
        let deep = String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300)
        #expect(throws: PatternError(message: "groups are nested too deeply (the limit is 200 levels)", offset: 200)) {
            try Pattern(deep)
        }
        let fine = String(repeating: "(", count: 150) + "a" + String(repeating: ")", count: 150)
        #expect((try? Pattern(fine))?.matches("a") == true)
    }

    @Test func longTokensAreShortenedInMessages() throws {
        let error = try #require(throws: PatternError.self) { try Pattern("[" + String(repeating: "a", count: 100)) }
        #expect(error.message == "unterminated character class '[" + String(repeating: "a", count: 39) + "…'; add the missing ']'")
    }
}
