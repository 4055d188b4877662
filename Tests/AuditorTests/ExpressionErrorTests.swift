import Testing
@_spi(Testing) @testable import Auditor

private typealias F = ExpressionFixture

/// Every compile error, with its exact position. The expression text starts at
/// rules.yml:14:17 (``ExpressionFixture/mark``), so offset k on the first line is column 17 + k.
@Suite("Expression compile errors")
struct ExpressionErrorTests {
    @Test(arguments: [
        // Names
        ("agee >= 16", "14:17: unknown attribute 'agee'; did you mean 'age'?"),
        ("age >= 16 and zzzzzzzz", "14:31: unknown attribute 'zzzzzzzz' (known: name, age, salary, has_licence, birthday, created_at, nick, score, first name, start, end)"),
        ("age > 1 and TRUE", "14:29: unknown attribute 'TRUE'; keywords are lower case: write 'true'"),
        ("today > birthday", "14:17: 'today' is a function; call it with parentheses: 'today()'"),
        ("`first nam` == ''", "14:17: unknown attribute 'first nam'; did you mean 'first name'?"),
        ("lenn(name) > 3", "14:17: unknown function 'lenn'; did you mean 'len'?"),
        ("yearsbetween(birthday, today()) > 3", "14:17: unknown function 'yearsbetween'; did you mean 'yearsBetween'?"),
        ("frobnicate(1)", "14:17: unknown function 'frobnicate'"),
        // Arity
        ("len(name, 2) > 1", "14:17: 'len' takes 1 argument, got 2"),
        ("coalesce(age) > 1", "14:17: 'coalesce' takes at least 2 arguments, got 1"),
        ("today(1) > birthday", "14:17: 'today' takes no arguments, got 1"),
        ("round(1, 2, 3) > 0", "14:17: 'round' takes 1 or 2 arguments, got 3"),
        ("matches(name) ", "14:17: 'matches' takes 2 arguments, got 1"),
        // Types
        ("age >= \"x\"", "14:21: cannot compare number with string"),
        ("birthday < 5", "14:26: cannot compare date with number"),
        ("created_at > birthday", "14:28: cannot compare datetime with date; convert the datetime with date(…) first (its UTC date)"),
        ("has_licence < true", "14:29: cannot order booleans with '<'; compare them with == or !="),
        ("age == null", "14:21: comparing with null is always unknown; use isNull(x) or present(x)"),
        ("age in [1, 'a']", "14:28: cannot compare number with string"),
        ("age in []", "14:21: the list after 'in' is empty"),
        ("age between 1 and 'z'", "14:21: cannot compare number with string"),
        ("age + 1", "14:17: expected a boolean expression, got a number; a condition must be true or false, e.g. 'age >= 16'"),
        ("(name)", "14:17: expected a boolean expression, got a string; a condition must be true or false, e.g. 'age >= 16'"),
        ("not age", "14:17: 'not' needs a boolean operand, got a number"),
        ("age and true", "14:21: 'and' needs boolean operands, but its left side is a number"),
        ("true or name", "14:22: 'or' needs boolean operands, but its right side is a string"),
        ("-name == ''", "14:17: cannot negate a string"),
        ("name + 1 == 'x'", "14:22: cannot add string and number"),
        ("age * 'x' > 1", "14:21: cannot multiply number by string"),
        ("birthday - birthday > 1", "14:26: cannot subtract date from date; use daysBetween(a, b) for the days between two dates"),
        ("birthday + 1 > today()", "14:26: cannot add date and number; use addDays(d, n), addMonths(d, n) or addYears(d, n) to move a date"),
        ("len(age) > 1", "14:21: argument 1 of 'len' must be a string, got a number"),
        ("yearsBetween(birthday, created_at) > 1", "14:40: argument 2 of 'yearsBetween' must be a date, got a datetime; convert it with date(…) (its UTC date)"),
        ("year(name) > 1", "14:22: argument 1 of 'year' must be a date or a datetime, got a string"),
        ("date(age) < today()", "14:22: argument 1 of 'date' must be a date, a datetime or a string, got a number"),
        ("coalesce(age, name) > 1", "14:31: the arguments of 'coalesce' must have one type: argument 2 is a string, an earlier one a number"),
        ("max(true, false)", "14:21: 'max' needs numbers, strings, dates or datetimes, got booleans"),
        ("if(age, 1, 2) > 0", "14:20: argument 1 of 'if' must be a boolean, got a number"),
        ("matches(name, nick)", "14:31: the pattern of 'matches' must be a string literal"),
        ("matches(name, '[a-')", "14:31: invalid pattern '[a-': unterminated character class '[a-'; add the missing ']'"),
        ("date('2021-02-29') < today()", "14:22: '2021-02-29' is not a valid date (YYYY-MM-DD)"),
        ("datetime('2021-03-04 12:00:00') < now()", "14:26: '2021-03-04 12:00:00' is not a valid datetime (YYYY-MM-DDTHH:MM:SSZ)"),
        ("[1, 2]", "14:17: a list '[…]' can only follow 'in'"),
        ("age < 9007199254740993", "14:23: number '9007199254740993' has 16 significant digits; expressions compute with 64-bit doubles, which hold 15 exactly; use min/max/enum on the attribute for exact bounds"),
        // Syntax
        ("age = 16", "14:21: '=' is not an operator; use '==' to compare"),
        ("age >= 16 && has_licence", "14:27: '&&' is not an operator; use 'and'"),
        ("age < 1 || has_licence", "14:25: '||' is not an operator; use 'or'"),
        ("!has_licence", "14:17: '!' is not an operator; use 'not'"),
        ("age <> 1", "14:21: '<>' is not an operator; use '!='"),
        ("name == 'abc", "14:25: unterminated string; add the closing '"),
        ("name == \"\\d\"", "14:26: unknown escape '\\d' in a string; write '\\\\d' or use a raw string r\"...\""),
        ("name == '\\u{110000}'", "14:26: invalid escape '\\u{…}'; write 1 to 6 hexadecimal digits of a Unicode scalar, e.g. '\\u{E9}'"),
        ("`first name == ''", "14:17: unterminated name; add the closing '`'"),
        ("age > 1.", "14:23: invalid number '1.'; write digits after the '.'"),
        ("age > 12abc", "14:23: invalid number '12abc'"),
        ("age > 1 # comment", "14:25: unexpected character '#'"),
        ("naïve == ''", "14:19: unexpected character 'ï'; write a name with other characters in backquotes, e.g. `Straße`"),
        ("(age > 1", "14:17: '(' is not closed; add ')'"),
        ("(age > 1 name", "14:26: expected ')' to close '(', found 'name'"),
        ("len(name > 1", "14:17: the argument list of 'len' is not closed; add ')'"),
        ("age in [1, 2", "14:24: the list is not closed; add ']'"),
        ("age in 1", "14:24: expected a list '[…]' after 'in', found '1'"),
        ("age 16", "14:21: unexpected '16' after a complete expression; is an operator or a comma missing?"),
        ("age is null", "14:21: unexpected 'is' after a complete expression; write isNull(x) or present(x) instead of 'x is null'"),
        ("age > 1 AND age < 3", "14:25: unexpected 'AND' after a complete expression; keywords are lower case: write 'and'"),
        ("1 < age < 3", "14:25: comparisons cannot be chained; combine them with 'and' (e.g. 'a < b and b < c')"),
        ("age >", "14:22: expected a value, a name or '(', found end of expression"),
        ("age > )", "14:23: expected a value, a name or '(', found ')'"),
        ("age between 1 or 3", "14:31: expected 'and' in 'between … and …', found 'or'"),
        ("  ", "14:17: the expression is empty"),
        ("age > - not true", "14:25: 'not' applies to a whole condition here; put it in parentheses, e.g. '(not x)'"),
    ] as [(String, String)])
    func diagnosticsPointAtTheOffendingToken(_ source: String, _ expected: String) {
        #expect(F.error(source) == "rules.yml:" + expected)
    }

    @Test func positionsCountLinesAndUnicodeScalars() {
        #expect(F.error("age >= 16 and\n  agee < 99") == "rules.yml:15:19: unknown attribute 'agee'; did you mean 'age'?")
        #expect(F.error("'é😀' == agee") == "rules.yml:14:25: unknown attribute 'agee'; did you mean 'age'?")
        #expect(F.error("age >= 16\r\n  and\r\n    agee") == "rules.yml:16:21: unknown attribute 'agee'; did you mean 'age'?")
    }

    @Test func anyResultTypeWhenNotExpectingBoolean() throws {
        let e = try ExpressionCompiler.compile("age + 1", mark: F.mark, attributes: F.attributes, now: F.now, expecting: nil)
        #expect(e.resultType == .number)
        let d = try ExpressionCompiler.compile("today()", mark: F.mark, attributes: F.attributes, now: F.now, expecting: .date)
        #expect(d.resultType == .date)
        #expect(F.error("null", expecting: .boolean) == nil)
        #expect(F.error("age", expecting: .string) == "rules.yml:14:17: expected a string expression, got a number")
    }
}
