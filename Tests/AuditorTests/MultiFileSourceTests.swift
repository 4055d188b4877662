@testable import Auditor
import Testing

/// A source of several files (issue 15): one accumulator over all of them, findings that name
/// their file, per-file inputs, and the same result for any job count and chunk size.
@Suite struct MultiFileSourceTests {
    static let yaml = """
        version: 1
        sources:
          people: { path: [p1.mem, p2.mem, p3.mem] }
          orders: { path: [o1.mem, o2.mem] }
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id: { type: integer, unique: true }
              age: { type: integer, min: 0 }
          Order:
            source: orders
            key: [no]
            attributes:
              no: { type: integer, unique: true }
              person: integer
            relationships:
              buyer: { attribute: person, references: Person.id }
        """
    static let people = ["id", "age"]
    static let orders = ["no", "person"]
    static let tables: [String: (fields: [String], rows: [[String?]])] = [
        "p1": (people, [["1", "30"], ["2", "-1"]]),
        "p2": (people, [["3", "40"], ["1", "50"], ["4", "-5"]]),   // id 1 again: the duplicate is in p2
        "p3": (people, [["5", "20"]]),
        "o1": (orders, [["100", "5"], ["101", "9"]]),              // person 5 is in p3, 9 nowhere
        "o2": (orders, [["102", "3"], ["100", "1"]]),              // order 100 again, across files
    ]

    @Test(arguments: [(1, 1), (1, 2), (2, 1), (2, 3), (4, 4096)])
    func uniqueAndReferencesSpanTheFilesAndFindingsNameTheirFile(jobs: Int, chunk: Int) throws {
        let r = try audit(Self.yaml, tables: Self.tables, jobs: jobs, chunkSize: chunk)
        #expect(r.counts["Person.id.unique"] == 1)
        #expect(r.counts["Person.age.min"] == 2)
        #expect(r.counts["Order.no.unique"] == 1)
        #expect(r.counts["Order.buyer.fk"] ?? r.counts["Order.person.fk"] ?? -1 == 1)
        let dup = try #require(r.report.rules.first { $0.id == "Person.id.unique" }?.samples.first)
        #expect(dup.location.path == "p2.mem")
        #expect(dup.location.line == 3)            // the second record of p2 (line 1 is a header)
        #expect(dup.location.record == 2)          // numbered within its file
        #expect(dup.message.contains("line 2 of p1.mem"))
        let ages = try #require(r.report.rules.first { $0.id == "Person.age.min" }).samples
        #expect(ages.map(\.location.path) == ["p1.mem", "p2.mem"])
        #expect(ages.map(\.location.record) == [2, 3])
        let orderDup = try #require(r.report.rules.first { $0.id == "Order.no.unique" }?.samples.first)
        #expect(orderDup.location.description == "o2.mem:3")
        // Every file is an input, with its own record count.
        #expect(r.report.inputs.map(\.path) == ["p1.mem", "p2.mem", "p3.mem", "o1.mem", "o2.mem"])
        #expect(r.report.inputs.map(\.records) == [2, 3, 1, 2, 2])
        #expect(r.report.entities.map(\.records) == [6, 4])
        #expect(r.exitStatus == .ruleFailures)
    }

    @Test func theReportIsTheSameForAnyJobCountAndChunkSize() throws {
        func findings(_ r: AuditResult) -> [String] {
            r.report.rules.flatMap { rule in rule.samples.map { "\(rule.id) \($0.location.description) #\($0.location.record) \($0.message)" } }
                + r.report.records.map { "\($0.location.description) \($0.findings.count)" }
        }
        let one = try audit(Self.yaml, tables: Self.tables, jobs: 1, chunkSize: 1)
        for (jobs, chunk) in [(2, 1), (2, 2), (3, 5), (4, 4096)] {
            let other = try audit(Self.yaml, tables: Self.tables, jobs: jobs, chunkSize: chunk)
            #expect(findings(other) == findings(one))
            #expect(other.counts == one.counts)
        }
    }

    @Test func aFileWithOtherFieldsIsADataErrorAndTheOthersAreStillAudited() throws {
        var tables = Self.tables
        tables["p2"] = (["id", "years"], [["3", "40"]])
        let r = try audit(Self.yaml, tables: tables, jobs: 2, chunkSize: 1)
        let bad = try #require(r.report.inputs.first { $0.path == "p2.mem" })
        #expect(!bad.complete)
        #expect(bad.errorStatus == .dataError)
        #expect(bad.error?.contains("p1.mem") == true)
        #expect(bad.error?.contains("'age'") == true)
        #expect(bad.error?.contains("'years'") == true)
        #expect(r.report.inputs.first { $0.path == "p3.mem" }?.records == 1)
        #expect(r.counts["Person.age.min"] == 1)        // p1's -1
        #expect(r.exitStatus == .dataError)
        #expect(r.inputErrors.count == 1)
    }

    @Test func aMissingFileIsReportedAndTheOthersAreStillAudited() throws {
        var tables = Self.tables
        tables["p3"] = nil
        let r = try audit(Self.yaml, tables: tables, jobs: 1, chunkSize: 2)
        let missing = try #require(r.report.inputs.first { $0.path == "p3.mem" })
        #expect(missing.errorStatus == .noInput)
        #expect(r.report.inputs.first { $0.path == "p2.mem" }?.records == 3)
        #expect(r.exitStatus == .noInput)
    }

    @Test func packedLocationsKeepTheFileAndTheNumber() {
        for (file, value) in [(0, Int64(0)), (1, 17), (3, FileLocation.mask), (FileLocation.maxFiles - 1, 5)] {
            let packed = FileLocation.pack(file: file, value)
            #expect(FileLocation.file(packed) == file)
            #expect(FileLocation.value(packed) == value)
        }
        #expect(FileLocation.file(-5) == 0 && FileLocation.value(-5) == -5)
        #expect(!FileLocation.fits(-1) && !FileLocation.fits(FileLocation.mask + 1))
    }
}
