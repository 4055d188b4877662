import Auditor
import Testing

/// Interproperty rules (`rules:` with `when:` and `assert:`) in the engine.
@Suite struct RecordRuleTests {
    let yaml = """
        version: 1
        sources: { t: { path: t.mem } }
        entities:
          Person:
            key: [id]
            idPrefix: person
            attributes:
              id: integer
              age: integer
              has_licence: boolean
              birthday: date
              created_at: datetime
              pin: { sensitive: true }
            rules:
              - id: person.licence_age
                when: has_licence
                assert: age >= 16
                message: "Person {id} is {age} and too young to hold a driving licence."
              - id: person.age.consistent
                assert: age == yearsBetween(birthday, date(created_at))
              - assert: len(pin) == 4
        """
    let fields = ["id", "age", "has_licence", "birthday", "created_at", "pin"]
    let rows: [[String?]] = [
        ["1", "12", "true", "2010-03-01", "2022-03-01T00:00:00Z", "1234"],     // too young; age consistent
        ["2", "12", "false", "2010-03-01", "2022-03-01T00:00:00Z", "123"],    // no licence: fine; pin wrong
        ["3", "x", "true", "2010-03-01", "2022-03-01T00:00:00Z", "1234"],     // age invalid: both skipped
        ["4", "17", nil, "2000-02-29", "2017-02-28T12:00:00Z", "1234"],       // Feb 29: 16 on Feb 28 → inconsistent
        ["5", "17", "true", "2000-02-29", "2017-03-01T00:00:00Z", "1234"],    // Feb 29: 17 on Mar 1 → fine
    ]

    @Test(arguments: [1, 2])
    func countsSkipsAndMessages(jobs: Int) throws {
        let r = try audit(yaml, fields: fields, rows: rows, jobs: jobs, chunkSize: 2)
        // The shorthand types are type rules (issue 13 §1): 'x' is a type finding, and the record
        // rules still skip the record (counted as skipped).
        #expect(r.counts == ["person.licence_age": 1, "person.age.consistent": 1, "person.rules.3": 1,
                             "person.id.type": 0, "person.age.type": 1, "person.has_licence.type": 0,
                             "person.birthday.type": 0, "person.created_at.type": 0])
        let rules = Dictionary(uniqueKeysWithValues: r.report.rules.map { ($0.id, $0) })
        let licence = try #require(rules["person.licence_age"])
        #expect(licence.samples.first?.message == "Person 1 is 12 and too young to hold a driving licence.")
        #expect(licence.samples.first?.value == "has_licence=true, age=12")
        #expect(licence.evaluated == 2)          // records 1 and 5 hold a licence with a valid age
        #expect(licence.skipped == 2)            // record 3 (age invalid), record 4 (has_licence missing)
        #expect(licence.code == 1550)
        let consistent = try #require(rules["person.age.consistent"])
        #expect(consistent.samples.first?.location.line == 5)
        #expect(consistent.skipped == 1)
        let pin = try #require(rules["person.rules.3"]?.samples.first)
        #expect(pin.value == "pin=••••")
        #expect(pin.message == "The record does not satisfy 'len(pin) == 4': pin=••••.")
    }

    @Test func expressionErrorsPointAtTheRulesFile() {
        let bad = yaml.replacingOccurrences(of: "assert: age >= 16", with: "assert: agee >= 16")
        #expect {
            try audit(bad, fields: fields, rows: rows)
        } throws: { error in
            (error as? AuditError)?.diagnostics.first?.description == "rules.yml:17:17: unknown attribute 'agee'; did you mean 'age'?"
        }
        let types = yaml.replacingOccurrences(of: "assert: age >= 16", with: "assert: birthday < 5")
        #expect {
            try audit(types, fields: fields, rows: rows)
        } throws: { error in
            (error as? AuditError)?.diagnostics.first?.description.hasPrefix("rules.yml:17:26:") == true
                && (error as? AuditError)?.diagnostics.first?.description.contains("cannot compare date with number") == true
        }
    }
}
