import Foundation
import TestSupport
import Testing

/// A data set made by `../shared/bench/gen.py` once per test process (issue 2's "Done when",
/// on 20 000 rows instead of 200 000).
enum GeneratedData {
    static let rows = 20_000
    static let seed = 7

    /// `<repo>/../shared/bench/gen.py`.
    static let script = Auditor.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/bench/gen.py").standardizedFileURL

    static let python3: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent("python3")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    /// Whether the generator can run here; the tests are skipped (and say why) when it cannot.
    static var available: Bool { python3 != nil && FileManager.default.fileExists(atPath: script.path) }

    static var skipReason: Comment {
        "skipped, not passed: needs python3 on PATH (found: \(python3?.path ?? "none")) and the generator at \(script.path) (exists: \(FileManager.default.fileExists(atPath: script.path)))"
    }

    /// The folder with people.csv, people.sqlite and expected.json, made on first use;
    /// removed when the test process exits.
    static let folder: Result<URL, Auditor.Failure> = generate()

    static func dataset() throws -> URL { try folder.get() }

    private static func generate() -> Result<URL, Auditor.Failure> {
        guard let python3 else { return .failure(.init(description: "python3 not found")) }
        let out = FileManager.default.temporaryDirectory
            .appendingPathComponent("auditor-e2e-gen-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: out)
        atexit {
            try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory
                .appendingPathComponent("auditor-e2e-gen-\(ProcessInfo.processInfo.processIdentifier)"))
        }
        let run: ChildProcess.Result
        do {
            run = try ChildProcess.run([python3.path, script.path, "--rows", String(rows), "--seed", String(seed),
                                        "--formats", "csv,xml,sqlite", "--out", out.path])
        } catch { return .failure(.init(description: "\(error)")) }
        guard run.status == 0 else {
            return .failure(.init(description: "gen.py exited \(run.status): \(run.stderrText)"))
        }
        for name in ["people.csv", "people.xml", "people.sqlite", "expected.json"]
        where !FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path) {
            return .failure(.init(description: "gen.py wrote no \(name) in \(out.path)"))
        }
        return .success(out)
    }
}

@Suite("Generated data (gen.py --rows 20000 --seed 7)",
       .enabled(if: GeneratedData.available, GeneratedData.skipReason))
struct GeneratedDataTests {
    /// One export of the generated data: the file and the generator's counts for its format.
    struct Export: Sendable, CustomTestStringConvertible {
        var file: String
        var format: String
        var testDescription: String { format }
    }

    static let exports = [Export(file: "people.csv", format: "csv"), Export(file: "people.xml", format: "xml"),
                           Export(file: "people.sqlite", format: "sqlite")]

    @Test("Counts equal expected.json counts_by_format", arguments: exports)
    func countsMatchGenerator(_ export: Export) throws {
        let data = try GeneratedData.dataset()
        let run = try assertExecute(
            ["run", "rules/people.yml", "--source", "people=\(data.appendingPathComponent(export.file).path)",
             "--source", "departments=\(data.appendingPathComponent("departments.csv").path)", "--format", "json"],
            exitCode: 1, timeout: 300)
        let report = try ReportJSON(run.stdout)
        let expected = try expectedCounts(data.appendingPathComponent("expected.json"), format: export.format)
        var required = Set(expected.keys).subtracting(deferredRuleIDs)
        if export.format != "csv" { required.remove("csv.row.ragged") }  // a CSV-only rule
        try expectCounts(report, equal: expected, requiring: required)
        #expect(integer(report.inputs.first?["records"]) == GeneratedData.rows)
        #expect(report.inputs.first?["format"] as? String == export.format)
    }

    /// Command-line variants that must not change a byte of the report (timings aside).
    static let variants: [[String]] = [
        ["--jobs", "2"],
        ["--chunk-size", "7"],
        ["--jobs", "2", "--chunk-size", "7"],
        ["--jobs", "2", "--chunk-size", "1000"],
    ]

    @Test("Same report bytes for any --jobs and --chunk-size (timings removed)",
          arguments: exports, variants)
    func reportIndependentOfJobsAndChunks(_ export: Export, _ variant: [String]) throws {
        let data = try GeneratedData.dataset()
        let base = ["run", "rules/people.yml", "--source", "people=\(data.appendingPathComponent(export.file).path)",
                    "--format", "json"]
        let one = try assertExecute(base + ["--jobs", "1"], exitCode: 1, timeout: 300)
        let other = try assertExecute(base + variant, exitCode: 1, timeout: 300)
        let a = try withoutTimings(one.stdout)
        let b = try withoutTimings(other.stdout)
        // startedAt + durationSeconds + one inputs[].seconds at least: else the stripping missed its target.
        #expect(a.replaced >= 3 && a.replaced == b.replaced, "timing fields replaced: \(a.replaced) and \(b.replaced)")
        #expect(a.text == b.text, "--jobs 1 and \(variant.joined(separator: " ")) differ at \(firstDifference(a.text, b.text))")
        // The comparison is only meaningful on a report with samples in it.
        #expect(a.text.contains("\"samples\""), "no samples in the report")
    }
}
