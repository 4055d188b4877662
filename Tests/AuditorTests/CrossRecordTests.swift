import Auditor
import Testing

@Suite struct CrossRecordTests {
    @Test func compositeUniqueExcludesNullsAndNamesTheFirstLine() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                unique: [a, b]
                attributes: { a: integer, b: string }
            """
        let rows: [[String?]] = [["1", "x"], ["1", "y"], ["1", "x"], [nil, "x"], [nil, "x"], ["2", nil], ["2", nil], ["01", "x"]]
        let r = try audit(yaml, tables: ["t": (["a", "b"], rows)])
        let rule = try #require(r.report.rules.first { $0.id == "E.a+b.unique" })
        #expect(rule.violations == 2)          // line 4 repeats line 2; 01 is the integer 1
        #expect(rule.samples.map(\.message) == [
            "The combination a, b = (1, x) must be unique; it already appears at line 2.",
            "The combination a, b = (01, x) must be unique; it already appears at line 2.",
        ])
        #expect(rule.code == 1551)
    }

    let company = """
        version: 1
        sources:
          departments: { path: departments.mem }
          people: { path: people.mem }
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id: integer
              dept: integer
              manager: integer
            relationships:
              department: { attribute: dept, references: Department.id }
              boss: { attribute: manager, references: Person.id, id: person.manager.fk }
          Department:
            source: departments
            key: [id]
            attributes: { id: integer, name: string }
            relationships:
              employees: { from: Person.department, minCount: 1, maxCount: 2 }
        """
    let departments: (fields: [String], rows: [[String?]]) = (["id", "name"], [["1", "Sales"], ["2", "Legal"], ["3", "Data"]])
    let people: (fields: [String], rows: [[String?]]) = (["id", "dept", "manager"], [
        ["10", "1", "12"],      // forward self-reference: fine
        ["11", "1", nil],       // no manager: not checked
        ["12", "1", "10"],      // Sales now has 3 people: above maxCount
        ["13", "9", "99"],      // dangling department and manager
        ["14", nil, "10"],
    ])

    @Test(arguments: [(1, 1), (2, 2), (2, 4096)])
    func referencesSelfReferencesAndCardinality(jobs: Int, chunk: Int) throws {
        let r = try audit(company, tables: ["departments": departments, "people": people], jobs: jobs, chunkSize: chunk)
        // The shorthand `integer` attributes are type rules too (issue 13 §1), all passed.
        #expect(r.counts == ["Person.dept.fk": 1, "person.manager.fk": 1,
                             "Department.employees.minCount": 2, "Department.employees.maxCount": 1,
                             "Person.id.type": 0, "Person.dept.type": 0, "Person.manager.type": 0, "Department.id.type": 0])
        let fk = try #require(r.report.rules.first { $0.id == "Person.dept.fk" }?.samples.first)
        #expect(fk.message == "dept '9' does not reference an existing Department: no Department.id has this value.")
        #expect(fk.location.line == 5)
        let few = try #require(r.report.rules.first { $0.id == "Department.employees.minCount" })
        #expect(few.code == 1580)
        #expect(few.samples.map(\.message) == ["Department id=2 has 0 employees; at least 1 required.",
                                               "Department id=3 has 0 employees; at least 1 required."])
        #expect(few.samples.map { $0.location.line } == [3, 4])
        #expect(few.evaluated == 3)
        let many = try #require(r.report.rules.first { $0.id == "Department.employees.maxCount" }?.samples.first)
        #expect(many.code == 1590)
        #expect(many.message == "Department id=1 has 3 employees; at most 2 allowed.")
        // The report lists entities in rules-file order although Department was audited first.
        #expect(r.report.entities.map(\.name) == ["Person", "Department"])
        #expect(r.report.entities.last?.violatingRecords == 3)
    }

    @Test func aMissingReferencedSourceLeavesTheReferenceNotEvaluated() throws {
        let r = try audit(company, tables: ["people": people])
        let fk = try #require(r.report.rules.first { $0.id == "Person.dept.fk" })
        #expect(fk.status == .notEvaluated)
        #expect(r.exitStatus == .noInput)
    }

    @Test func schemaDriftIsAFindingNotAnError() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                columns: { required: [id, code], allowExtra: false }
                attributes: { id: integer, name: { required: true } }
            """
        let r = try audit(yaml, tables: ["t": (["id", "extra"], [["1", "x"], ["2", "y"]])])
        let drift = try #require(r.report.rules.first { $0.id == "E.columns" })
        #expect(drift.violations == 1)
        #expect(drift.code == 2021)
        #expect(drift.samples.map(\.message) == [
            "The input has no column 'code'; it is required.",
            "The input has no column 'name'; the attribute is read as missing.",
            "The input has an unexpected column 'extra'.",
        ])
        #expect(r.counts["E.name.required"] == 2)
    }

    @Test func rowCountBounds() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                rowCount: { min: 3 }
                attributes: { id: integer }
            """
        let r = try audit(yaml, tables: ["t": (["id"], [["1"], ["2"]])])
        let rule = try #require(r.report.rules.first { $0.id == "E.rowCount" })
        #expect(rule.violations == 1)
        #expect(rule.samples.first?.message == "E has 2 records; expected at least 3.")
        #expect(rule.samples.first?.location.description == "t.mem")
    }

    @Test(arguments: [("2024-03-02T11:00:00Z", 0), ("2024-03-02T13:00:01Z", 1)])
    func freshnessIsRelativeToAsOf(asOf: String, violations: Int) throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                freshness: { attribute: created_at, maxAge: 1d12h }
                attributes: { created_at: datetime }
            """
        let rows: [[String?]] = [["2024-02-28T00:00:00Z"], ["2024-03-01T01:00:00Z"], ["not a date"], [nil]]
        let seconds = try #require(Array(asOf.utf8).withUnsafeBufferPointer { ByteParsers.datetime($0) })
        let r = try audit(yaml, tables: ["t": (["created_at"], rows)], asOf: seconds)
        let rule = try #require(r.report.rules.first { $0.id == "E.freshness" })
        #expect(rule.violations == violations)
        if violations > 0 {
            #expect(rule.samples.first?.message == "The newest created_at is 2024-03-01T01:00:00Z, more than 1d12h before 2024-03-02T13:00:01Z.")
        }
    }

    @Test func durations() {
        #expect(DurationText.seconds("36h") == 129_600)
        #expect(DurationText.seconds("1d12h") == 129_600)
        #expect(DurationText.seconds("90m") == 5400)
        #expect(DurationText.seconds("1w") == 604_800)
        #expect(DurationText.seconds("12") == nil)
        #expect(DurationText.seconds("h") == nil)
        #expect(DurationText.seconds("3x") == nil)
    }

    @Test func relationshipMistakesAreLocated() throws {
        let yaml = """
            version: 1
            sources: { t: { path: t.mem } }
            entities:
              E:
                attributes: { id: integer, ref: string, other: integer }
                relationships:
                  a: { attribute: ref, references: E.id }
                  b: { attribute: other, references: F.id }
                  c: { from: E.nope, minCount: 1 }
            """
        #expect {
            try audit(yaml, tables: ["t": (["id", "ref", "other"], [])])
        } throws: { error in
            let d = (error as? AuditError)?.diagnostics.map(\.description) ?? []
            return d == [
                "rules.yml:7:40: relationship 'a' compares string with integer of E; declare the same types on both sides",
                "rules.yml:8:42: relationship 'b' references an unknown entity 'F'; did you mean 'E'?",
                "rules.yml:9:18: relationship 'c' counts 'E.nope', which is not a declared relationship",
            ]
        }
    }
}
