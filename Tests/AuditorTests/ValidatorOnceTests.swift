import Foundation
@testable import Auditor
import Testing

/// A validator that counts its calls: values starting with `bad` fail.
final class CountingValidator: Validator, @unchecked Sendable {     // `calls` is only touched under `lock`
    private let lock = NSLock()
    private var calls = 0

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return calls
    }

    private func called() {
        lock.lock()
        defer { lock.unlock() }
        calls += 1
    }

    func validate(_ value: Value) -> [Violation] {
        called()
        guard case .string(let s) = value, s.hasPrefix("bad") else { return [] }
        return [Violation(kind: "custom", code: 2999, template: "{field} is bad; got '{value}'.",
                          parameters: ["value": s])]
    }

    func isValid(_ value: Value) -> Bool {
        called()
        guard case .string(let s) = value else { return true }
        return !s.hasPrefix("bad")
    }
}

/// Issue 14: a validator runs once per value; a sampled finding reuses the violations of the
/// evaluation that found it.
@Suite struct ValidatorOnceTests {
    @Test(arguments: [(1, 7), (2, 3), (2, 4096)])
    func validatorsRunOncePerValue(jobs: Int, chunkSize: Int) throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                source: t
                attributes:
                  code: { type: string, anyOf: [ { pattern: "[A-Z]+" }, { enum: [n/a] } ] }
            """
        // 60 records: 35 bad values, 5 missing (not validated), 20 good ones.
        let rows: [[String?]] = (0 ..< 60).map { i in [i % 12 == 5 ? nil : i % 12 < 7 ? "bad\(i)" : "OK\(i)"] }
        let present = rows.filter { $0[0] != nil }.count
        let bad = rows.filter { $0[0]?.hasPrefix("bad") == true }.count
        let registry = ReaderRegistry([InMemoryReader.factory(fields: ["code"], rows: rows)])
        var plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        let counting = CountingValidator()
        let check = try #require(plan.entities[0].checks.firstIndex {
            if case .validator = $0.test { return true }
            return false
        })
        plan.entities[0].checks[check].test = .validator(counting)
        let engine = AuditEngine(registry: registry, options: AuditOptions(jobs: jobs, chunkSize: chunkSize, maxSamples: 20))
        let result = try engine.run(plan)
        let rule = try #require(result.report.rules.first { $0.id == "E.code.anyOf" })
        #expect(rule.violations == bad)
        #expect(rule.samples.count == 20)
        // The messages come from the violations found during the evaluation.
        #expect(rule.samples.first?.message.contains("code is bad; got 'bad0'.") == true)
        // Once per present value: not again for the 20 sampled findings.
        #expect(counting.count == present)
    }
}
