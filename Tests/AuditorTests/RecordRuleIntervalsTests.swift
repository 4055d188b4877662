import Foundation
import Testing
@testable import Auditor

/// Interval reasoning on record rules, checked against brute force: Python enumerates every
/// pair of integers within the attributes' bounds and evaluates the same expression (our
/// `and`, `or`, `not` and comparisons read the same in Python). "Never holds" must mean no pair
/// makes it true; "always holds" that every pair does. The analysis may say nothing; it must
/// never be wrong.
@Suite("Record rule intervals")
struct RecordRuleIntervalsTests {
    struct Generated: Codable {
        var expression: String
        var a: [Int]   // [lo, hi]
        var b: [Int]
    }

    struct Truth: Codable { var canTrue: Bool; var canFalse: Bool }

    /// A random expression over integer attributes `a` and `b` with constants in -6...6.
    static func expression(_ depth: Int, _ rng: inout SystemRandomNumberGenerator) -> String {
        let ops = ["<", "<=", ">", ">=", "==", "!="]
        if depth == 0 || Int.random(in: 0..<3, using: &rng) == 0 {
            let left = ["a", "b"].randomElement(using: &rng)!   // non-empty literal array
            let right = Bool.random(using: &rng) ? String(Int.random(in: -6...6, using: &rng))
                : (Bool.random(using: &rng) ? "a" : "b") + (Bool.random(using: &rng) ? " + \(Int.random(in: -3...3, using: &rng))" : "")
            return "\(left) \(ops.randomElement(using: &rng)!) \(right)"
        }
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return "(\(expression(depth - 1, &rng)) and \(expression(depth - 1, &rng)))"
        case 1: return "(\(expression(depth - 1, &rng)) or \(expression(depth - 1, &rng)))"
        default: return "not (\(expression(depth - 1, &rng)))"
        }
    }

    @Test("Never/always verdicts agree with brute force on 600 generated rules")
    func differential() throws {
        guard PythonOracle.path != nil else { return }
        var rng = SystemRandomNumberGenerator()
        var cases = [Generated]()
        var verdicts = [Truth]()
        for _ in 0..<600 {
            let expr = Self.expression(3, &rng)
            let a0 = Int.random(in: -5...5, using: &rng), b0 = Int.random(in: -5...5, using: &rng)
            let a = [a0, a0 + Int.random(in: 0...4, using: &rng)], b = [b0, b0 + Int.random(in: 0...4, using: &rng)]
            let yaml = """
                version: 1
                sources: { s: { path: x.csv } }
                entities:
                  E:
                    source: s
                    attributes:
                      a: { type: integer, min: \(a[0]), max: \(a[1]) }
                      b: { type: integer, min: \(b[0]), max: \(b[1]) }
                    rules:
                      - assert: "\(expr)"
                """
            let spec = try RulesFileParser(formats: ["csv"]).parse(yaml, path: "rules.yml")
            let entity = try #require(spec.entities.first)
            let rule = try #require(entity.recordRules.first)
            let syntax = try #require(Self.parse(rule.assert.text))
            let t = RecordRuleIntervals.truth(syntax, RecordRuleIntervals.environment(entity))
            cases.append(Generated(expression: expr, a: a, b: b))
            verdicts.append(Truth(canTrue: t.canTrue, canFalse: t.canFalse))
        }
        let script = """
            import json, sys
            out = []
            for c in json.load(sys.stdin):
                vals = [eval(c["expression"], {}, {"a": a, "b": b})
                        for a in range(c["a"][0], c["a"][1] + 1) for b in range(c["b"][0], c["b"][1] + 1)]
                out.append({"canTrue": any(vals), "canFalse": not all(vals)})
            json.dump(out, sys.stdout)
            """
        let truth = try PythonOracle.run(script, input: cases, as: [Truth].self)
        var decided = 0
        for (i, (mine, real)) in zip(verdicts, truth).enumerated() {
            // Sound: never claims "cannot be true" when some pair is true (and likewise false).
            #expect(mine.canTrue || !real.canTrue, "claims \(cases[i].expression) never holds for a in \(cases[i].a), b in \(cases[i].b)")
            #expect(mine.canFalse || !real.canFalse, "claims \(cases[i].expression) always holds for a in \(cases[i].a), b in \(cases[i].b)")
            if !mine.canTrue || !mine.canFalse { decided += 1 }
        }
        // Not vacuous: a good share of the generated rules are decided.
        #expect(decided > 60, "only \(decided) of 600 decided")
    }

    static func parse(_ text: String) -> ExpressionSyntax? {
        var lexer = ExpressionLexer(text)
        guard let tokens = try? lexer.tokenize() else { return nil }
        var parser = ExpressionParser(tokens: tokens, source: text)
        return try? parser.parse()
    }
}
