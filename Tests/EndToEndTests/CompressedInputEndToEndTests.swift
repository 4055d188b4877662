import Foundation
import TestSupport
import Testing

/// gen.py data as `.csv.gz`, `.csv.zst`, gzipped XML and standard input (`--source people=-`)
/// give exactly the counts of the plain files (issue 15).
@Suite("Compressed and streamed input (gen.py --rows 20000 --seed 7)",
       .enabled(if: GeneratedData.available, GeneratedData.skipReason))
struct CompressedInputEndToEndTests {
    /// `file` of the generated data compressed with `tool` (`gzip`, `zstd`) beside it, once.
    static func compressed(_ file: String, _ tool: String, suffix: String) throws -> URL {
        let data = try GeneratedData.dataset()
        let out = data.appendingPathComponent(file + suffix)
        if FileManager.default.fileExists(atPath: out.path) { return out }
        let partial = data.appendingPathComponent("\(file)\(suffix).\(UUID().uuidString)")
        let run = try ChildProcess.run(["/bin/sh", "-c", "\(tool) -c < \"$1\" > \"$2\"", "sh", data.appendingPathComponent(file).path, partial.path])
        try #require(run.status == 0, "\(tool) failed: \(run)")
        _ = try? FileManager.default.moveItem(at: partial, to: out)
        return out
    }

    static func has(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// Runs the people rules on `people` (a path or `-`) and checks the CSV or XML counts.
    func expectAuditCounts(people: String, format: String, extra: [String] = [], standardInput: URL? = nil) throws {
        let data = try GeneratedData.dataset()
        let run = try Auditor.run(
            ["run", "rules/people.yml", "--source", "people=\(people)",
             "--source", "departments=\(data.appendingPathComponent("departments.csv").path)", "--format", "json"] + extra,
            timeout: 300, standardInput: standardInput)
        #expect(run.status == 1, "\(run)")
        let report = try ReportJSON(run.stdout)
        let expected = try expectedCounts(data.appendingPathComponent("expected.json"), format: format)
        var required = Set(expected.keys).subtracting(deferredRuleIDs)
        if format != "csv" { required.remove("csv.row.ragged") }
        try expectCounts(report, equal: expected, requiring: required)
        #expect(integer(report.inputs.first?["records"]) == GeneratedData.rows)
    }

    @Test func gzipCSVGivesTheCSVCounts() throws {
        try expectAuditCounts(people: try Self.compressed("people.csv", "gzip", suffix: ".gz").path, format: "csv")
    }

    @Test(.enabled(if: has("zstd"), "the zstd tool is not installed"))
    func zstdCSVGivesTheCSVCounts() throws {
        try expectAuditCounts(people: try Self.compressed("people.csv", "zstd", suffix: ".zst").path, format: "csv",
                         extra: ["--jobs", "2"])
    }

    @Test func gzipXMLGivesTheXMLCounts() throws {
        try expectAuditCounts(people: try Self.compressed("people.xml", "gzip", suffix: ".gz").path, format: "xml")
    }

    @Test func standardInputGivesTheCSVCounts() throws {
        let data = try GeneratedData.dataset()
        try expectAuditCounts(people: "-", format: "csv", extra: ["--source-format", "people=csv"],
                         standardInput: data.appendingPathComponent("people.csv"))
        try expectAuditCounts(people: "-", format: "csv", extra: ["--source-format", "people=csv", "-o", "-"],
                         standardInput: try Self.compressed("people.csv", "gzip", suffix: ".gz"))
    }

    /// A gzip file named `.csv` is read as gzip: never the "save the file as UTF-8" advice.
    @Test func gzipNamedCSVIsReadAsGzip() throws {
        let data = try GeneratedData.dataset()
        let renamed = data.appendingPathComponent("renamed-gzip.csv")
        if !FileManager.default.fileExists(atPath: renamed.path) {
            try FileManager.default.copyItem(at: try Self.compressed("people.csv", "gzip", suffix: ".gz"), to: renamed)
        }
        try expectAuditCounts(people: renamed.path, format: "csv")
    }

    @Test func aTruncatedGzipIsExit65WithTheOffsetAndNoUTF8Advice() throws {
        let data = try GeneratedData.dataset()
        let whole = try Data(contentsOf: try Self.compressed("people.csv", "gzip", suffix: ".gz"))
        let cut = data.appendingPathComponent("cut.csv.gz")
        try whole.prefix(whole.count / 2).write(to: cut)
        let run = try Auditor.run(["run", "rules/people.yml", "--source", "people=\(cut.path)", "--format", "json",
                                   "--source", "departments=\(data.appendingPathComponent("departments.csv").path)"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrText.contains("compressed byte \(whole.count / 2)"), "\(run)")
        #expect(!run.stderrText.contains("iconv") && !run.stdoutText.contains("iconv"))
        let report = try ReportJSON(run.stdout)
        #expect((integer(report.inputs.first?["records"]) ?? 0) > 1000)   // findings before it are reported
    }

    @Test func standardInputNeedsAFormatAndCanBeReadOnce() throws {
        let data = try GeneratedData.dataset()
        let csv = data.appendingPathComponent("people.csv")
        let noFormat = try Auditor.run(["run", "rules/people.yml", "--source", "people=-"], standardInput: csv)
        #expect(noFormat.status == 64, "\(noFormat)")
        #expect(noFormat.stderrText.contains("--source-format people=csv"), "\(noFormat)")
        let twice = try Auditor.run(["run", "rules/people.yml", "--source", "people=-", "--source", "departments=-",
                                     "--source-format", "people=csv", "--source-format", "departments=csv"], standardInput: csv)
        #expect(twice.status == 64, "\(twice)")
        #expect(twice.stderrText.contains("read only once"), "\(twice)")
        let unknownFormat = try Auditor.run(["run", "rules/people.yml", "--source-format", "people=sqlit"])
        #expect(unknownFormat.status == 64)
        #expect(unknownFormat.stderrText.contains("did you mean 'sqlite'?"), "\(unknownFormat)")
        let unknownSource = try Auditor.run(["run", "rules/people.yml", "--source-format", "peple=csv"])
        #expect(unknownSource.status == 64)
        #expect(unknownSource.stderrText.contains("did you mean 'people'?"), "\(unknownSource)")
        let sqlite = try Auditor.run(["run", "rules/people.yml", "--source", "people=-", "--source-format", "people=sqlite"],
                                     standardInput: csv)
        #expect(sqlite.status == 64 || sqlite.status == 65, "\(sqlite)")
        #expect(sqlite.stderrText.contains("random access"), "\(sqlite)")
        let parquet = try Auditor.run(["run", "rules/people.yml", "--source", "people=-", "--source-format", "people=parquet"],
                                      standardInput: csv)
        #expect(parquet.status == 64, "\(parquet)")
        #expect(parquet.stderrText.contains("random access"), "\(parquet)")
    }

    /// Parquet needs random access: a gzipped Parquet file is refused (65) with the advice to
    /// decompress it, never read as a corrupt footer.
    @Test func aCompressedParquetFileIsRefused() throws {
        let fixture = Auditor.packageRoot.appendingPathComponent("Tests/ReadersTests/Fixtures/parquet/flat-plain-none-v1.parquet")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-pq-gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let gz = dir.appendingPathComponent("people.parquet.gz")
        try #require(try ChildProcess.run(["/bin/sh", "-c", "gzip -c < \"$1\" > \"$2\"", "sh", fixture.path, gz.path]).status == 0)
        let run = try Auditor.run(["run", "rules/people.yml", "--source", "people=\(gz.path)"])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderrText.contains("gzip-compressed") && run.stderrText.contains("decompress it first"), "\(run)")
    }
}
