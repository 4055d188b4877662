import Foundation
import TestSupport
import Testing

/// The JSON Lines reader through the binary (issue 15 "Done when", on gen.py's 20,000 rows):
/// gen.py's CSV converted by `scripts/csv-to-jsonl.py` (every field a JSON string, as the CSV
/// holds it) gives expected.json's counts without `csv.row.ragged`; so does the typed
/// conversion (`--typed`: valid numbers and booleans as JSON numbers and booleans), numbers
/// being judged by value.
@Suite("JSON Lines end to end", .enabled(if: GeneratedData.available, GeneratedData.skipReason))
struct JSONLEndToEndTests {
    /// people.jsonl (all strings) next to gen.py's files, converted once per test process.
    static let converted = convert(typed: false)
    /// people-typed.jsonl: numbers and booleans as JSON numbers and booleans where valid.
    static let typed = convert(typed: true)

    static func convert(typed: Bool) -> Result<URL, Auditor.Failure> {
        do {
            let data = try GeneratedData.dataset()
            let target = data.appendingPathComponent(typed ? "people-typed.jsonl" : "people.jsonl")
            guard let python3 = GeneratedData.python3 else { return .failure(.init(description: "python3 not found")) }
            let run = try ChildProcess.run([python3.path, Auditor.packageRoot.appendingPathComponent("scripts/csv-to-jsonl.py").path]
                + (typed ? ["--typed"] : []) + [data.appendingPathComponent("people.csv").path, target.path])
            guard run.status == 0 else {
                return .failure(.init(description: "csv-to-jsonl.py exited \(run.status): \(run.stderrText)"))
            }
            return .success(target)
        } catch {
            return .failure(.init(description: "\(error)"))
        }
    }

    @Test("Counts equal expected.json's without csv.row.ragged; every record read; no structural finding",
          arguments: [false, true])
    func countsMatchGenerator(typed: Bool) throws {
        let data = try GeneratedData.dataset()
        let jsonl = try (typed ? Self.typed : Self.converted).get()
        let run = try assertExecute(
            ["run", "rules/people.yml", "--source", "people=\(jsonl.path)",
             "--source", "departments=\(data.appendingPathComponent("departments.csv").path)", "--format", "json"],
            exitCode: 1, timeout: 300)
        let report = try ReportJSON(run.stdout)
        var expected = try expectedCounts(data.appendingPathComponent("expected.json"), format: "csv")
        expected["csv.row.ragged"] = nil
        for id in ["jsonl.line.malformed", "jsonl.encoding", "jsonl.key.duplicate"] { expected[id] = 0 }
        try expectCounts(report, equal: expected, requiring: Set(expected.keys).subtracting(deferredRuleIDs))
        #expect(integer(report.inputs.first?["records"]) == GeneratedData.rows)
        #expect(report.inputs.first?["format"] as? String == "jsonl")
    }

    @Test("Same report bytes for --jobs 1 and --jobs 2 --chunk-size 7 (timings removed)")
    func reportIndependentOfJobs() throws {
        let jsonl = try Self.converted.get()
        let base = ["run", "rules/people.yml", "--source", "people=\(jsonl.path)", "--format", "json"]
        let one = try assertExecute(base + ["--jobs", "1"], exitCode: 1, timeout: 300)
        let two = try assertExecute(base + ["--jobs", "2", "--chunk-size", "7"], exitCode: 1, timeout: 300)
        let a = try withoutTimings(one.stdout)
        let b = try withoutTimings(two.stdout)
        #expect(a.replaced >= 3 && a.text == b.text, "differ at \(firstDifference(a.text, b.text))")
    }

    @Test("A malformed line is a located finding; the lines after it are audited")
    func malformedLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-jsonl-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let line = #"{"id": 1, "name": "Ann Lee", "email": "ann@example.com", "birthday": "1990-01-02", "has_licence": true, "age": 30, "salary": 10.5, "country": "GB", "dept_id": 1, "created_at": "2020-01-02T03:04:05Z", "notes": null}"#
        let text = line + "\n{\"id\": 2, \"name\": \n" + line.replacingOccurrences(of: "\"id\": 1", with: "\"id\": 3")
            .replacingOccurrences(of: "\"age\": 30", with: "\"age\": 30.5") + "\n"
        let file = dir.appendingPathComponent("people.jsonl")
        try Data(text.utf8).write(to: file)
        let run = try assertExecute(["run", "rules/people.yml", "--source", "people=\(file.path)", "--format", "json"],
                                    exitCode: 1, timeout: 120)
        let counts = try ReportJSON(run.stdout).violationsByRule()
        #expect(counts["jsonl.line.malformed"] == 1)
        #expect(counts["person.age.type"] == 1, "30.5 is not an integer")
        #expect(counts["person.id.type"] == 0 && counts["person.salary.type"] == 0 && counts["person.has_licence.type"] == 0)
        let out = String(decoding: run.stdout, as: UTF8.self)
        #expect(out.contains("people.jsonl"))
        let text2 = try assertExecute(["run", "rules/people.yml", "--source", "people=\(file.path)"], exitCode: 1, timeout: 120)
        #expect(String(decoding: text2.stdout, as: UTF8.self).contains("people.jsonl:2"))
    }

    @Test("A mapped path that no line has: 65, with a suggestion from the first line's keys and those keys")
    func mappedPathNeverSeen() throws {
        let tmp = try Scratch("jsonl-mapped-path")
        defer { tmp.remove() }
        try tmp.write("d.jsonl", "{\"id\": 1, \"address\": {\"city\": \"Bonn\"}}\n{\"id\": 2}\n")
        try tmp.write("r.yml", """
            version: 1
            sources:
              d: { path: d.jsonl, jsonl: { fields: { city: { path: adress.city } } } }
            entities:
              D: { source: d, attributes: { id: integer, city: { maxLength: 9 } } }

            """)
        try assertExecute(["run", "r.yml", "-q"], in: tmp.url, exitCode: 65,
                          stderrContains: ["no line of 'd.jsonl' has the key 'adress.city' that field 'city' reads; did you mean "
                                           + "'address.city'? The first line has the keys: id, address. Correct its path in "
                                           + "'jsonl: { fields: { city: { path: … } } }' (keys separated by dots)"])
    }

    /// Compressed and streamed JSON Lines (issue 15): the reader reads through the same
    /// decompressing input as CSV, so a gzipped file and standard input give the plain file's
    /// counts, and a truncated gzip exits 65.
    @Test("people.jsonl.gz and --source people=- give the plain file's counts")
    func gzipAndStandardInput() throws {
        let jsonl = try Self.converted.get()
        let gz = try CompressedInputEndToEndTests.compressed(jsonl.lastPathComponent, "gzip", suffix: ".gz")
        let base = ["run", "rules/people.yml", "--format", "json"]
        let plain = try assertExecute(base + ["--source", "people=\(jsonl.path)"], exitCode: 1, timeout: 300)
        let zipped = try assertExecute(base + ["--source", "people=\(gz.path)"], exitCode: 1, timeout: 300)
        let piped = try Auditor.run(base + ["--source", "people=-", "--source-format", "people=jsonl"],
                                    timeout: 300, standardInput: gz)
        #expect(piped.status == 1, "\(piped)")
        let counts = try ReportJSON(plain.stdout).violationsByRule()
        #expect(counts.values.reduce(0, +) > 0)
        #expect(try ReportJSON(zipped.stdout).violationsByRule() == counts)
        #expect(try ReportJSON(piped.stdout).violationsByRule() == counts)
    }
}
