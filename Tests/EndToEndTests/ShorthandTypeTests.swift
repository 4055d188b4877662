import Foundation
import Testing

/// Issue 13 §1: the shorthand `age: integer` means exactly `age: { type: integer }`.
@Suite("Shorthand attribute types")
struct ShorthandTypeTests {
    /// `abc` in an integer column, `zz` and an unknown department in the foreign key, a bad
    /// date, a record rule, and a bad key in the referenced entity.
    static let people = """
        id,age,dept_id,start
        1,30,10,2020-01-01
        2,abc,10,2020-01-02
        3,40,zz,2020-01-03
        4,50,99,2020-01-04
        5,17,10,2020-02-30
        6,19,10,2020-01-06

        """
    static let departments = "id,name\n10,Sales\nx1,Bad\n"

    /// The same rules written with shorthand types or with the long form; the entities in a
    /// flow mapping too (`attributes: { id: integer, name: string }`, as in the README).
    static func rules(shorthand: Bool) -> String {
        func t(_ type: String) -> String { shorthand ? type : "{ type: \(type) }" }
        return """
            version: 1
            sources:
              people: { path: people.csv }
              depts: { path: depts.csv }
            entities:
              Department:
                source: depts
                key: [id]
                attributes: { id: \(t("integer")), name: \(t("string")) }
              Person:
                source: people
                key: [id]
                attributes:
                  id: \(t("integer"))
                  age: \(t("integer"))
                  dept_id: \(t("integer"))
                  start: \(t("date"))
                relationships:
                  department: { attribute: dept_id, references: Department.id }
                rules:
                  - id: person.adult
                    assert: age >= 18

            """
    }

    /// Runs one rules file and returns the JSON report with the parts that depend on the rules
    /// file's layout or on time removed.
    static func report(shorthand: Bool, in tmp: Scratch) throws -> (ReportJSON, String) {
        let name = shorthand ? "short.yml" : "long.yml"
        try tmp.write(name, rules(shorthand: shorthand))
        let run = try assertExecute(["run", name, "--format", "json"], in: tmp.url, exitCode: 1)
        let object = try JSONSerialization.jsonObject(with: run.stdout)
        let stripped = strip(object)
        let data = try JSONSerialization.data(withJSONObject: stripped, options: [.sortedKeys, .prettyPrinted])
        return (try ReportJSON(run.stdout), String(decoding: data, as: UTF8.self))
    }

    /// Drops `definedAt` (rules-file line:column), `rulesFile` and timings.
    static func strip(_ value: Any) -> Any {
        if let d = value as? [String: Any] {
            var out = [String: Any]()
            for (k, v) in d where !["definedAt", "rulesFile", "startedAt", "durationSeconds", "seconds"].contains(k) {
                out[k] = strip(v)
            }
            return out
        }
        if let a = value as? [Any] { return a.map(strip) }
        return value
    }

    @Test("Shorthand integer: 'abc' is exactly one type finding (2001); a bad date is 1650")
    func shorthandTypeFinding() throws {
        let tmp = try Scratch("shorthand")
        defer { tmp.remove() }
        try tmp.write("people.csv", Self.people)
        try tmp.write("depts.csv", Self.departments)
        let (report, _) = try Self.report(shorthand: true, in: tmp)
        let age = try #require(report.rules(withID: "Person.age.type").first, "no type rule for the shorthand 'age: integer'")
        #expect(integer(age["violations"]) == 1)
        #expect(integer(age["code"]) == 2001)
        let sample = try #require((age["samples"] as? [[String: Any]])?.first)
        #expect(sample["value"] as? String == "abc")
        #expect(integer(((sample["location"] as? [String: Any])?["locator"] as? [String: Any])?["line"]) == 3)
        let start = try #require(report.rules(withID: "Person.start.type").first)
        #expect(integer(start["violations"]) == 1)
        #expect(integer(start["code"]) == 1650)
        #expect(integer(report.rules(withID: "Department.id.type").first?["violations"]) == 1)
        #expect(integer(report.rules(withID: "Person.dept_id.type").first?["violations"]) == 1)
        // The foreign key checks valid values only: 99 is the one unknown department.
        #expect(integer(report.rules(withID: "Person.dept_id.fk").first?["violations"]) == 1)
        // The record rule flags 17 and skips 'abc' (counted, and the type rule reports it).
        let adult = try #require(report.rules(withID: "person.adult").first)
        #expect(integer(adult["violations"]) == 1)
        #expect(integer(adult["skipped"]) == 1)
        // A shorthand `string` declares no rule, as `{ type: string }` does not.
        #expect(report.rules(withID: "Department.name.type").isEmpty)
    }

    @Test("Shorthand and long-form rules give identical reports (apart from rules-file positions)")
    func shorthandEqualsLongForm() throws {
        let tmp = try Scratch("shorthand-long")
        defer { tmp.remove() }
        try tmp.write("people.csv", Self.people)
        try tmp.write("depts.csv", Self.departments)
        let (_, short) = try Self.report(shorthand: true, in: tmp)
        let (_, long) = try Self.report(shorthand: false, in: tmp)
        #expect(short == long)
    }
}
