import Foundation
import TestSupport
import Testing

/// gen.py's people.csv split by `scripts/split-partitions.py` into 10 partition files (each
/// with the header), made once per test process next to the generated data.
enum PartitionedData {
    static let parts = 10

    static let folder: Result<URL, Auditor.Failure> = split()

    private static func split() -> Result<URL, Auditor.Failure> {
        let data: URL
        do { data = try GeneratedData.dataset() } catch { return .failure(.init(description: "\(error)")) }
        guard let python3 = GeneratedData.python3 else { return .failure(.init(description: "python3 not found")) }
        let out = data.appendingPathComponent("parts")
        let run: ChildProcess.Result
        do {
            run = try ChildProcess.run([python3.path, Auditor.packageRoot.appendingPathComponent("scripts/split-partitions.py").path,
                                        data.appendingPathComponent("people.csv").path, out.path, "--parts", String(parts),
                                        "--prefix", "people-"])
        } catch { return .failure(.init(description: "\(error)")) }
        guard run.status == 0 else {
            return .failure(.init(description: "split-partitions.py exited \(run.status): \(run.stderrText)"))
        }
        return .success(out)
    }

    /// The partition files, in order.
    static func files() throws -> [String] {
        let folder = try folder.get()
        return (0 ..< parts).map { folder.appendingPathComponent(String(format: "people-%02d.csv", $0)).path }
    }
}

@Suite("Sources of several files (issue 15)", .enabled(if: GeneratedData.available, GeneratedData.skipReason))
struct MultiFileSourceEndToEndTests {
    enum Form: String, CaseIterable, Sendable { case folder, glob, list }

    /// The `--source` arguments that name the 10 partitions as a folder, a glob or a list.
    static func sourceArguments(_ form: Form) throws -> [String] {
        let files = try PartitionedData.files()
        let folder = try PartitionedData.folder.get().path
        switch form {
        case .folder: return ["--source", "people=\(folder)"]
        case .glob: return ["--source", "people=\(folder)/people-*.csv"]
        case .list: return ["--source", "people=\(files[0])"] + files.dropFirst().flatMap { ["--source", "people+=\($0)"] }
        }
    }

    @Test("10 CSV partitions give exactly expected.json's counts and the single file's report", arguments: Form.allCases)
    func partitionsMatchTheSingleFile(_ form: Form) throws {
        let data = try GeneratedData.dataset()
        let departments = ["--source", "departments=\(data.appendingPathComponent("departments.csv").path)"]
        let run = try assertExecute(["run", "rules/people.yml", "--format", "json"] + departments + Self.sourceArguments(form),
                                    exitCode: 1, timeout: 300)
        let report = try ReportJSON(run.stdout)
        let expected = try expectedCounts(data.appendingPathComponent("expected.json"), format: "csv")
        try expectCounts(report, equal: expected, requiring: Set(expected.keys).subtracting(deferredRuleIDs))
        // Every partition is an input, with its records.
        let people = report.inputs.filter { $0["source"] as? String == "people" }
        #expect(people.compactMap { $0["path"] as? String } == (try PartitionedData.files()))
        #expect(people.reduce(0) { $0 + (integer($1["records"]) ?? 0) } == GeneratedData.rows)
        // The single file's report: the same counts and the same samples (keys, values), other locations.
        let single = try ReportJSON(assertExecute(["run", "rules/people.yml", "--format", "json"] + departments
                                                  + ["--source", "people=\(data.appendingPathComponent("people.csv").path)"],
                                                  exitCode: 1, timeout: 300).stdout)
        #expect(try report.violationsByRule() == single.violationsByRule())
        func samples(_ r: ReportJSON) -> [String] {
            r.rules.flatMap { rule in
                (rule["samples"] as? [[String: Any]] ?? []).map { "\(rule["id"] ?? "") \($0["key"] ?? "") \($0["value"] ?? "")" }
            }
        }
        #expect(samples(report) == samples(single))
        // Findings name their partition.
        let paths = Set(report.rules.flatMap { ($0["samples"] as? [[String: Any]] ?? []).compactMap { ($0["location"] as? [String: Any])?["path"] as? String } })
        #expect(paths.isSubset(of: Set(try PartitionedData.files())) && !paths.isEmpty)
    }

    @Test("A folder gives the same report bytes for --jobs 1 and --jobs 2 --chunk-size 7")
    func partitionsIndependentOfJobs() throws {
        let base = ["run", "rules/people.yml", "--format", "json"] + (try Self.sourceArguments(.folder))
        let one = try withoutTimings(assertExecute(base + ["--jobs", "1"], exitCode: 1, timeout: 300).stdout)
        let two = try withoutTimings(assertExecute(base + ["--jobs", "2", "--chunk-size", "7"], exitCode: 1, timeout: 300).stdout)
        #expect(one.text == two.text, "differ at \(firstDifference(one.text, two.text))")
    }
}

@Suite("Sources of several files: small cases")
struct MultiFileSourceCaseTests {
    static let rules = """
        version: 1
        sources:
          people: { path: parts/ }
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id: { type: integer, unique: true }
              name: { type: string, required: true }
        """

    func scratch(_ files: [String: String]) throws -> Scratch {
        let s = try Scratch("multi")
        try s.write("rules.yml", Self.rules)
        for (name, text) in files { try s.write(name, text) }
        return s
    }

    @Test func aDuplicateIdAcrossTwoFilesIsFoundAndNamesItsFile() throws {
        let s = try scratch(["parts/a.csv": "id,name\n1,Ann\n2,Bob\n", "parts/b.csv": "id,name\n3,Cy\n1,Dee\n",
                             "parts/.hidden.csv": "id,name\n1,Hidden\n", "parts/notes.txt": "not data\n"])
        defer { s.remove() }
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: s.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        let unique = try #require(report.rules(withID: "Person.id.unique").first)
        #expect(integer(unique["violations"]) == 1)
        let sample = try #require((unique["samples"] as? [[String: Any]])?.first)
        let location = try #require(sample["location"] as? [String: Any])
        #expect(location["path"] as? String == "parts/b.csv")
        #expect(integer((location["locator"] as? [String: Any])?["line"]) == 3)
        #expect(integer(location["record"]) == 2)
        #expect((sample["message"] as? String)?.contains("parts/a.csv") == true)
        #expect(report.inputs.compactMap { $0["path"] as? String } == ["parts/a.csv", "parts/b.csv"])
        let text = try assertExecute(["run", "rules.yml"], in: s.url, exitCode: 1)
        #expect(text.stdoutText.contains("parts/b.csv:3"), "\(text)")
    }

    @Test func aFileWithAnotherHeaderIsADataErrorNamingBothFiles() throws {
        let s = try scratch(["parts/a.csv": "id,name\n1,Ann\n", "parts/b.csv": "id,fullname\n2,Bob\n", "parts/c.csv": "id,name\n3,Cy\n"])
        defer { s.remove() }
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: s.url, exitCode: 65,
                                    stderrContains: ["parts/b.csv", "parts/a.csv", "'fullname'"])
        let report = try ReportJSON(run.stdout)
        #expect(report.inputs.map { integer($0["records"]) } == [1, 0, 1])
    }

    @Test func aGlobOrFolderThatMatchesNothingIsMissingInput() throws {
        let s = try scratch(["parts/a.csv": "id,name\n1,Ann\n", "empty/readme.md": "nothing\n"])
        defer { s.remove() }
        try assertExecute(["run", "rules.yml", "--source", "people=nowhere/*.csv"], in: s.url, exitCode: 66,
                          stderrContains: ["nowhere/*.csv"])
        try assertExecute(["run", "rules.yml", "--source", "people=empty"], in: s.url, exitCode: 66, stderrContains: ["empty"])
    }

    @Test func repeatingSourceIsAUsageErrorAndPlusEqualsAddsFiles() throws {
        let s = try scratch(["parts/a.csv": "id,name\n1,Ann\n", "parts/b.csv": "id,name\n1,Bob\n"])
        defer { s.remove() }
        try assertExecute(["run", "rules.yml", "--source", "people=parts/a.csv", "--source", "people=parts/b.csv"], in: s.url,
                          exitCode: 64, stderrContains: ["twice", "people+="])
        let run = try assertExecute(["run", "rules.yml", "--format", "json", "--source", "people=parts/a.csv",
                                     "--source", "people+=parts/b.csv"], in: s.url, exitCode: 1)
        #expect(integer(try ReportJSON(run.stdout).rules(withID: "Person.id.unique").first?["violations"]) == 1)
    }

    @Test func aListInTheRulesFileIsReadInTheGivenOrder() throws {
        let s = try scratch(["parts/a.csv": "id,name\n1,Ann\n", "parts/b.csv": "id,name\n1,Bob\n"])
        defer { s.remove() }
        try s.write("rules.yml", Self.rules.replacingOccurrences(of: "path: parts/", with: "path: [parts/b.csv, parts/a.csv]"))
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: s.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        #expect(report.inputs.compactMap { $0["path"] as? String } == ["parts/b.csv", "parts/a.csv"])
        let sample = try #require((report.rules(withID: "Person.id.unique").first?["samples"] as? [[String: Any]])?.first)
        #expect((sample["location"] as? [String: Any])?["path"] as? String == "parts/a.csv")
    }

    @Test(arguments: ["1", "2"])
    func aMalformedFileEndsTheReadAtThatFile(jobs: String) throws {
        let s = try scratch(["parts/a.csv": "id,name\n1,Ann\n", "parts/b.csv": "id,name\n2,\"Bob\n", "parts/c.csv": "id,name\n3,Cy\n"])
        defer { s.remove() }
        let run = try assertExecute(["run", "rules.yml", "--format", "json", "--jobs", jobs], in: s.url, exitCode: 65,
                                    stderrContains: ["parts/b.csv:2"])
        let inputs = try ReportJSON(run.stdout).inputs
        #expect(inputs.map { $0["complete"] as? Bool } == [true, false, false])
        #expect(inputs.map { integer($0["errorStatus"]) } == [nil, 65, nil])
        #expect((inputs.last?["error"] as? String)?.contains("stopped at the error in parts/b.csv") == true)
    }

    @Test func noOutputMayOverwriteAnyFileOfTheSource() throws {
        let s = try scratch(["parts/a.csv": "id,name\n1,Ann\n", "parts/b.csv": "id,name\n2,Bob\n"])
        defer { s.remove() }
        try assertExecute(["run", "rules.yml", "-o", "parts/b.csv"], in: s.url, exitCode: 64, stderrContains: ["parts/b.csv"])
        #expect(try String(contentsOfFile: s.path("parts/b.csv"), encoding: .utf8) == "id,name\n2,Bob\n")
    }

    @Test func xmlFilesAreOneSourceToo() throws {
        let s = try Scratch("multi-xml")
        defer { s.remove() }
        try s.write("rules.yml", """
            version: 1
            sources:
              people: { path: "x/*.xml", xml: { record: /people/person } }
            entities:
              Person:
                source: people
                key: [id]
                attributes:
                  id: { type: integer, unique: true }
                  name: { type: string, required: true }
            """)
        try s.write("x/a.xml", "<people>\n<person><id>1</id><name>Ann</name></person>\n</people>\n")
        try s.write("x/b.xml", "<people>\n<person><id>2</id><name>Bob</name></person>\n<person><id>1</id></person>\n</people>\n")
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: s.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        #expect(integer(report.rules(withID: "Person.id.unique").first?["violations"]) == 1)
        #expect(integer(report.rules(withID: "Person.name.required").first?["violations"]) == 1)
        let sample = try #require((report.rules(withID: "Person.id.unique").first?["samples"] as? [[String: Any]])?.first)
        #expect((sample["location"] as? [String: Any])?["text"] as? String == "x/b.xml:3")
        #expect(report.inputs.map { integer($0["records"]) } == [1, 2])
    }

    /// JSON Lines and Parquet partitions are one source too (the generic multi-file reader);
    /// Parquet locations keep their row group and row, per file.
    @Test func jsonLinesAndParquetFilesAreOneSourceToo() throws {
        let s = try Scratch("multi-jsonl")
        defer { s.remove() }
        try s.write("rules.yml", """
            version: 1
            sources:
              people: { path: "j/*.jsonl" }
              parquet: { path: "p" }
            entities:
              Person:
                source: people
                key: [id]
                attributes:
                  id: { type: integer, unique: true }
                  name: { type: string, required: true }
              Row:
                source: parquet
                attributes:
                  i64: { type: integer }
            """)
        try s.write("j/a.jsonl", #"{"id": 1, "name": "Ann"}"# + "\n")
        try s.write("j/b.jsonl", #"{"id": 2, "name": "Bob"}"# + "\n" + #"{"id": 1}"# + "\n")
        let fixture = Auditor.packageRoot.appendingPathComponent("Tests/ReadersTests/Fixtures/parquet/flat-plain-none-v1.parquet")
        try FileManager.default.createDirectory(at: s.url.appendingPathComponent("p"), withIntermediateDirectories: true)
        for name in ["a.parquet", "b.parquet"] {
            try FileManager.default.copyItem(at: fixture, to: s.url.appendingPathComponent("p/\(name)"))
        }
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: s.url)
        let report = try ReportJSON(run.stdout)
        #expect(integer(report.rules(withID: "Person.id.unique").first?["violations"]) == 1, "\(run)")
        #expect(integer(report.rules(withID: "Person.name.required").first?["violations"]) == 1)
        let sample = try #require((report.rules(withID: "Person.id.unique").first?["samples"] as? [[String: Any]])?.first)
        #expect((sample["location"] as? [String: Any])?["text"] as? String == "j/b.jsonl:2")
        let rows = report.inputs.filter { ($0["path"] as? String)?.hasSuffix(".parquet") == true }.map { integer($0["records"]) }
        #expect(rows.count == 2 && rows[0] == rows[1] && (rows[0] ?? 0) > 0, "\(report.inputs)")
    }
}
