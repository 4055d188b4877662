import Testing
@_spi(Testing) @testable import Auditor

private typealias F = ExpressionFixture

/// Deeply nested expressions are a located error, not a stack overflow (found by
/// Fuzz/FuzzExpression: 1,131 '-' in a row crashed the checker). The limit is
/// `ExpressionParser.maxDepth` (100); expressions at the limit still compile and evaluate.
@Suite("Expression nesting depth")
struct ExpressionDepthTests {
    static let message = "the expression nests more than 100 levels deep here; split it into several rules, "
        + "or write 'x in [a, b, …]' instead of a long chain of 'or'"
    static let many = 100_000

    /// The column (rules.yml:14:17 is offset 0) of the `n`-th occurrence of `token` in `source`.
    static func column(of token: String, occurrence n: Int, in source: String) -> Int {
        var index = source.startIndex
        var found = 0
        while let range = source[index...].range(of: token) {
            found += 1
            if found == n { return 17 + source.distance(from: source.startIndex, to: range.lowerBound) }
            index = range.upperBound
        }
        return -1
    }

    @Test func prefixMinusSigns() {
        let source = String(repeating: "-", count: Self.many) + "age > 0"
        #expect(F.error(source) == "rules.yml:14:\(17 + 100): " + Self.message)
    }

    @Test func prefixNots() {
        let source = String(repeating: "not ", count: Self.many) + "has_licence"
        #expect(F.error(source) == "rules.yml:14:\(17 + 400): " + Self.message)
    }

    @Test func parentheses() {
        let source = String(repeating: "(", count: Self.many) + "age > 0" + String(repeating: ")", count: Self.many)
        #expect(F.error(source) == "rules.yml:14:\(17 + 100): " + Self.message)
        let call = String(repeating: "abs(", count: Self.many) + "age" + String(repeating: ")", count: Self.many) + " > 0"
        #expect(F.error(call) == "rules.yml:14:\(17 + 400): " + Self.message)
    }

    @Test func longOperatorChains() {
        // Left-deep: the k-th 'or' heads a tree k + 2 deep (its comparisons add 2), so the
        // 99th is the first one past 100.
        let ors = Array(repeating: "age > 0", count: Self.many).joined(separator: " or ")
        #expect(F.error(ors) == "rules.yml:14:\(Self.column(of: " or ", occurrence: 99, in: ors) + 1): " + Self.message)
        let sum = Array(repeating: "age", count: Self.many).joined(separator: " + ") + " > 0"
        #expect(F.error(sum)?.hasSuffix(Self.message) == true)
    }

    @Test func expressionsAtTheLimitCompileAndEvaluate() throws {
        let ors = (0 ..< 99).map { "age == \($0)" }.joined(separator: " or ")     // 100 deep
        #expect(try F.outcomes(ors, [["age": "98"], ["age": "99"]]) == [.true, .false])
        let parens = String(repeating: "(", count: 99) + "age > 0" + String(repeating: ")", count: 99)
        #expect(try F.outcome(parens, ["age": "5"]) == .true)
        let minus = String(repeating: "-", count: 97) + "age < 0"   // -age < 0
        #expect(try F.outcome(minus, ["age": "5"]) == .true)
        #expect(F.error(String(repeating: "(", count: 100) + "age > 0" + String(repeating: ")", count: 100)) != nil)
    }
}
