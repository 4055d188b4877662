import Auditor
import Foundation
import TestSupport
@_spi(Testing) import AuditorReaders
import Testing

/// The benchmark generator (`shared/bench/gen.py`) and Python, when this machine has them.
enum CSVGenerated {
    /// `$AUDITOR_GEN_PY`, or `shared/bench/gen.py` beside the repository (where CI and the
    /// work trees have it).
    static let script: String? = {
        var candidates = [String]()
        if let env = ProcessInfo.processInfo.environment["AUDITOR_GEN_PY"] { candidates.append(env) }
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(repo.deletingLastPathComponent().appendingPathComponent("shared/bench/gen.py").path)
        candidates.append("/work/shared/bench/gen.py")
        guard python != nil else { return nil }
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }()

    static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs python3 with arguments; returns standard output.
    static func run(_ arguments: [String]) throws -> Data {
        let run = try ChildProcess.run([python ?? "python3"] + arguments)
        guard run.status == 0 else {
            throw AuditError(.internal, "python3 \(arguments.first ?? "") exited with \(run.status): \(run.stderrText)")
        }
        return run.stdout
    }

    /// Python's `csv` module as an independent reading of the same file: each record's first
    /// line and its first `width` fields (`''` as null; the generator never quotes an empty value).
    static let oracle = """
        import csv, json, sys
        width = int(sys.argv[2])
        out, line = [], 1
        with open(sys.argv[1], newline="", encoding="utf-8") as f:
            r = csv.reader(f)
            next(r)
            line = r.line_num + 1
            for row in r:
                values = [v if v != "" else None for v in row[:width]]
                out.append({"line": line, "values": values + [None] * (width - len(values)), "fields": len(row)})
                line = r.line_num + 1
        json.dump(out, sys.stdout)
        """

    struct OracleRecord: Decodable {
        var line: Int64
        var values: [String?]
        var fields: Int
    }
}

@Suite struct CSVGeneratedFileTests {
    @Test(.enabled(if: CSVGenerated.script != nil, "needs python3 and shared/bench/gen.py"))
    func generatedFileMatchesExpectedCountsAndPythonsCSVModule() throws {
        let dir = try CSVFixture.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try CSVGenerated.run([CSVGenerated.script ?? "", "--rows", "3000", "--seed", "11",
                                  "--out", dir.path, "--formats", "csv"])
        let path = dir.appendingPathComponent("people.csv").path
        let expected = try JSONSerialization.jsonObject(
            with: Data(contentsOf: dir.appendingPathComponent("expected.json"))) as? [String: Any]
        let counts = (expected?["counts_by_format"] as? [String: Any])?["csv"] as? [String: Int]
        let rows = (expected?["tables"] as? [String: Int])?["people"]
        let physicalLines = expected?["csv_physical_lines"] as? Int
        let raggedExpected = try #require(counts?["csv.row.ragged"])
        #expect(raggedExpected > 0)

        let records = try CSVFixture.check(path)
        #expect(records.count == rows)
        #expect(records.count(where: { $0.issues.contains("csv.row.ragged") }) == raggedExpected)
        #expect(records.allSatisfy { !$0.issues.contains("csv.encoding") })
        let reader = try CSVReader(path: path)
        #expect(reader.schema.fields == ["id", "name", "email", "birthday", "has_licence", "age", "salary",
                                         "country", "dept_id", "created_at", "notes"])
        let issues = try CSVFixture.chunks(reader, size: 8192).flatMap(\.issues)
        #expect(issues.count == raggedExpected)
        #expect(reader.bytesRead == reader.totalBytes)

        let scriptFile = dir.appendingPathComponent("oracle.py")
        try Data(CSVGenerated.oracle.utf8).write(to: scriptFile)
        let oracle = try JSONDecoder().decode([CSVGenerated.OracleRecord].self,
                                              from: CSVGenerated.run([scriptFile.path, path, "11"]))
        #expect(oracle.count == records.count)
        #expect(oracle.count(where: { $0.fields != 11 }) == raggedExpected)
        for (mine, theirs) in zip(records, oracle) where mine.location != theirs.line || mine.values != theirs.values {
            Issue.record("record differs: \(mine) vs @\(theirs.line) \(theirs.values)")
            break
        }
        // The last record ends on the file's last physical line.
        if let last = records.last, let physicalLines {
            let newlinesInLast = last.values.reduce(0) { $0 + ($1?.utf8.count(where: { $0 == 10 }) ?? 0) }
            #expect(Int(last.location) + newlinesInLast == physicalLines)
        }
    }
}
