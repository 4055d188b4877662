import Foundation
import Testing

/// Issue 13 §5: each finding carries the code of the constraint it broke, a rule lists all its
/// codes, and a record group with several findings is 1560.
@Suite("Finding codes")
struct FindingCodeTests {
    /// Rows of the bundled example's shape, all valid but for the names and one email.
    static func people(_ rows: [(id: Int, name: String, email: String)]) -> String {
        var text = "id,name,email,birthday,has_licence,age,salary,country,dept_id,created_at,notes\n"
        for r in rows {
            text += "\(r.id),\(r.name),\(r.email),1993-12-02,true,30,88567.47,NL,18,2024-11-30T08:07:46Z,\n"
        }
        return text
    }

    static let csv = people([
        (1, "Jessica Wagner", "jw@example.org"),
        (2, "Al", "al@example.org"),                                   // too short: 1670
        (3, String(repeating: "Maximilian ", count: 4), "mx@example.org"),  // 44 characters: 1660
        (4, "Bo", "not-an-address"),                                   // too short and bad email: 1560
    ])

    static func run(_ tmp: Scratch, format: String) throws -> Execution {
        try tmp.write("people.csv", csv)
        let rules = Auditor.packageRoot.appendingPathComponent("rules/people.yml").path
        return try assertExecute(["run", rules, "--source", "people=people.csv", "--format", format, "--color", "never"],
                                 in: tmp.url, exitCode: 1)
    }

    @Test("minLength and maxLength under person.name.length: too short is 1670, too long 1660; codes [1670, 1660]")
    func sharedIDKeepsEachConstraintsCode() throws {
        let tmp = try Scratch("codes")
        defer { tmp.remove() }
        let report = try ReportJSON(Self.run(tmp, format: "json").stdout)
        let rule = try #require(report.rules(withID: "person.name.length").first)
        #expect(integer(rule["code"]) == 1670)
        #expect((rule["codes"] as? [Any])?.compactMap(integer) == [1670, 1660])
        #expect(integer(rule["violations"]) == 3)
        let samples = try #require(rule["samples"] as? [[String: Any]])
        let byLine = samples.map { (integer((($0["location"] as? [String: Any])?["locator"] as? [String: Any])?["line"]) ?? 0, integer($0["code"]) ?? 0) }
        #expect(byLine.map(\.0) == [3, 4, 5])
        #expect(byLine.map(\.1) == [1670, 1660, 1670])
        // A rule of one constraint lists one code.
        #expect((report.rules(withID: "person.email.pattern").first?["codes"] as? [Any])?.compactMap(integer) == [1680])
    }

    @Test("A record with two findings is a group of code 1560 (JSON and text); one finding keeps its code")
    func multipleErrorsGroup() throws {
        let tmp = try Scratch("codes-group")
        defer { tmp.remove() }
        let report = try ReportJSON(Self.run(tmp, format: "json").stdout)
        let records = try #require(report.root["records"] as? [[String: Any]])
        let groups = records.map { r in
            (integer(((r["location"] as? [String: Any])?["locator"] as? [String: Any])?["line"]) ?? 0, integer(r["code"]) ?? 0,
             (r["findings"] as? [[String: Any]])?.compactMap { integer($0["code"]) } ?? [])
        }
        #expect(groups.map(\.0) == [3, 4, 5])
        #expect(groups.map(\.1) == [1670, 1660, 1560])
        #expect(groups.last?.2.sorted() == [1670, 1680])
        let text = try Self.run(tmp, format: "text").stdoutText
        #expect(text.contains("people.csv:5 [id=4]: Person, 2 findings, code 1560"), "\(text)")
        #expect(text.contains("people.csv:4 [id=3]: Person, 1 finding, code 1660"), "\(text)")
    }
}
