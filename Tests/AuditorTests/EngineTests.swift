import Auditor
import Testing

let peopleRules = """
    version: 1
    sources:
      people: { path: people.mem }
    entities:
      Person:
        source: people
        key: [id]
        idPrefix: person
        attributes:
          id: { type: integer, required: true, unique: true }
          name:
            required: true
            minLength: { value: 3, id: person.name.length }
            maxLength: { value: 8, id: person.name.length }
            pattern: "[A-Za-zé ]+"
            message: "Name must be {minLength} to {maxLength} letters; got '{value}'."
          salary: { type: decimal, min: { value: 0, id: person.salary.minimum } }
          birthday: { type: date, max: 2020-12-31 }
          country: { enum: [US, GB, DE] }
          secret: { sensitive: true, pattern: "[0-9]+" }
    """

let peopleFields = ["id", "name", "salary", "birthday", "country", "secret"]
let peopleRows: [[String?]] = [
    ["1", "Anna", "10.5", "1990-01-01", "US", "123"],          // clean
    ["2", "Al", "-1", "1990-02-30", "UK", "12a"],              // length, minimum... birthday type, enum, pattern
    ["x", nil, "12,000", "2021-01-01", "GB", nil],             // id type, name required, salary type, birthday max
    ["1", "Zoé Lee", "0.00", nil, nil, "9"],                   // id unique (dup of line 2)
    ["3", "Bob_", "0", "2000-02-29", "DE", "1"],               // name pattern
    ["3", "Verylongname", "1e3", "1999-12-31", "us", ""],      // id unique, length, salary type, enum
]

@Suite struct EngineTests {
    @Test func countsEveryRuleExactly() throws {
        let r = try audit(peopleRules, fields: peopleFields, rows: peopleRows)
        #expect(r.counts == [
            "person.id.required": 0, "person.id.type": 1, "person.id.unique": 2,
            "person.name.required": 1, "person.name.length": 2, "person.name.pattern": 1,
            "person.salary.type": 2, "person.salary.minimum": 1,
            "person.birthday.type": 1, "person.birthday.max": 1,
            "person.country.enum": 2, "person.secret.pattern": 2,
        ])
        #expect(r.report.totalRecords == 6)
        #expect(r.exitStatus == .ruleFailures)
    }

    @Test func findingsCarryLocationKeyValueAndMessage() throws {
        let r = try audit(peopleRules, fields: peopleFields, rows: peopleRows)
        let length = try #require(r.report.rules.first { $0.id == "person.name.length" })
        #expect(length.kind == "minLength+maxLength")
        #expect(length.code == 1670)
        let f = try #require(length.samples.first)
        #expect(f.location.description == "people.mem:3")
        #expect(f.key == "id=2")
        #expect(f.value == "Al")
        #expect(f.message == "Name must be 3 to 8 letters; got 'Al'.")
        let dup = try #require(r.report.rules.first { $0.id == "person.id.unique" }?.samples)
        #expect(dup.map(\.message) == ["id must be unique; '1' already appears at line 2.",
                                       "id must be unique; '3' already appears at line 6."])
        #expect(dup.first?.code == 1551)
    }

    @Test func sensitiveValuesAreMaskedEverywhere() throws {
        let r = try audit(peopleRules, fields: peopleFields, rows: peopleRows)
        let secret = try #require(r.report.rules.first { $0.id == "person.secret.pattern" })
        #expect(secret.samples.allSatisfy { $0.value == "••••" && !$0.message.contains("12a") })
        #expect(r.report.records.flatMap(\.findings).allSatisfy { !($0.value ?? "").contains("12a") })
    }

    @Test func recordGroupsHoldAllFindingsOfARecord() throws {
        let r = try audit(peopleRules, fields: peopleFields, rows: peopleRows)
        let second = try #require(r.report.records.first { $0.location.line == 3 })
        #expect(second.findings.map(\.ruleID) == ["person.name.length", "person.salary.minimum",
                                                  "person.birthday.type", "person.country.enum", "person.secret.pattern"])
        #expect(r.report.entities.first?.violatingRecords == 5)
    }

    @Test(arguments: [(1, 1), (1, 2), (2, 1), (2, 7), (3, 4096)])
    func identicalReportsForAnyJobsAndChunkSize(jobs: Int, chunk: Int) throws {
        let base = try audit(peopleRules, fields: peopleFields, rows: peopleRows, jobs: 1, chunkSize: 4096)
        let other = try audit(peopleRules, fields: peopleFields, rows: peopleRows, jobs: jobs, chunkSize: chunk)
        #expect(other.report.rules == base.report.rules)
        #expect(other.report.records == base.report.records)
        #expect(other.report.entities == base.report.entities)
    }

    @Test func samplesAreCappedButCountsStayExact() throws {
        let rows: [[String?]] = (0 ..< 50).map { ["\($0)", "A", "1", "2000-01-01", "US", "1"] }
        let r = try audit(peopleRules, fields: peopleFields, rows: rows, jobs: 2, chunkSize: 7, maxSamples: 4)
        let length = try #require(r.report.rules.first { $0.id == "person.name.length" })
        #expect(length.violations == 50)
        #expect(length.samples.count == 4)
        #expect(length.sampled)
        #expect(length.samples.map { $0.location.line } == [2, 3, 4, 5])
        #expect(r.report.records.count == 4)
    }

    /// The input's fields come from the data: an attribute it lacks is a data error (65) located
    /// at the input, naming the rules file's line; the entity is not evaluated, never passed.
    @Test func unknownAttributeIsADataErrorOfTheInput() throws {
        let yaml = peopleRules.replacingOccurrences(of: "country: {", with: "countyr: {")
        let r = try audit(yaml, fields: peopleFields, rows: peopleRows)
        #expect(r.exitStatus == .dataError)
        let e = try #require(r.inputErrors.first)
        #expect(e.code == .malformedInput)
        #expect(e.location == "people.mem:1:1")
        #expect(e.message.hasPrefix("the header of people.mem lacks the column 'countyr' that 'Person' declares at rules.yml:19:7; did you mean 'country'? Its columns: 'id', "),
                "\(e)")
        #expect(r.report.inputs.first?.complete == false)
        #expect(r.report.rules.allSatisfy { $0.status == .notEvaluated }, "\(r.report.rules.map(\.status))")
    }

    @Test func missingAndWrongTypeViolateOnlyOneRule() throws {
        let yaml = """
            version: 1
            sources: { s: { path: x.mem } }
            entities:
              E:
                attributes:
                  n: { type: integer, required: true, min: 5, enum: [5, 6, 7] }
            """
        let r = try audit(yaml, fields: ["n"], rows: [[nil], [""], ["abc"], ["4"], ["6"], ["007"], ["9"]])
        #expect(r.counts == ["E.n.required": 1, "E.n.type": 2, "E.n.min": 1, "E.n.enum": 2])
    }
}

extension AuditError {
    var exitStatus: Auditor.ExitStatus { code.exitStatus }
}
