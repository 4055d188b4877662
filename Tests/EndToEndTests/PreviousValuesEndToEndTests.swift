import Foundation
import Testing

/// `previous.x` and `changed(x)` through the built `auditor` binary: findings and exit 1 for
/// a violated update rule, exit 78 with the rules-file line for a rule not scoped to updates.
@Suite struct PreviousValuesEndToEndTests {
    static let rules = """
        version: 1
        sources:
          people: { path: people.csv }
        entities:
          Person:
            source: people
            key: [id]
            attributes: { id: integer, name: string, salary: decimal }
            rules:
              - id: person.salary.drop
                ON
                assert: salary >= previous.salary * 0.8
                message: "{name}'s salary fell from {previous.salary} to {salary}, more than 20 %."
        """

    @Test func updateRuleReadsThePreviousSnapshot() throws {
        let tmp = try Scratch("previous")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules.replacingOccurrences(of: "ON", with: "on: [update]"))
        try tmp.write("before.csv", "id,name,salary\n1,Ann,1000.02\n2,Bob,1000.02\n3,Cy,10\n")
        try tmp.write("people.csv", "id,name,salary\n1,Ann,800.015\n2,Bob,800.016\n3,Cy,1\n4,Dee,1\n")
        let run = try assertExecute(["run", "rules.yml", "--previous", "people=before.csv", "--format", "json"],
                                    in: tmp.url, exitCode: 1)
        let json = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let rules = try #require(json["rules"] as? [[String: Any]])
        let drop = try #require(rules.first { $0["id"] as? String == "person.salary.drop" })
        // 800.015 < 1000.02 × 0.8 = 800.016 ≤ 800.016; 1 < 8; Dee is inserted (not evaluated).
        #expect(drop["violations"] as? Int == 2)
        #expect(drop["evaluated"] as? Int == 3)
        let messages = (drop["samples"] as? [[String: Any]])?.compactMap { $0["message"] as? String }
        #expect(messages == ["Ann's salary fell from 1000.02 to 800.015, more than 20 %.",
                             "Cy's salary fell from 10 to 1, more than 20 %."])
    }

    @Test(arguments: ["on: [insert, update]", "description: no scope"])
    func unscopedRuleIsARulesError(scope: String) throws {
        let tmp = try Scratch("previous-unscoped")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules.replacingOccurrences(of: "ON", with: scope))
        try tmp.write("people.csv", "id,name,salary\n1,Ann,1\n")
        try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 78,
                          stderrMatches: [#"rules\.yml:12:17: 'previous\.salary' reads the previous snapshot.*scope it with 'on: \[update\]'"#])
    }
}
