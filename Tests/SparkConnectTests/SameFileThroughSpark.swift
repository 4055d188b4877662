#if Spark
import Foundation
import TestSupport
import Testing

/// One generated file audited by its own reader in process and by Spark (`files:`, streamed
/// and pushed down), for the suites that hold Spark to the readers (``SparkParquetTests``,
/// ``SparkJSONFilesTests``).
enum SameFileThroughSpark {
    /// Writes the file with `generator` (run as `python make.py FILE SEED`), audits it with
    /// `rules` (`PATH` the file, a line `SPARK` where the `spark:` block goes) in process and
    /// through Spark, and expects the same counts and samples of every rule (those of the
    /// reader's own structural rules, ids starting with `readerRules`, left out), and the
    /// pushed-down audit to run in Spark.
    /// - Returns: The in-process report's violations per rule.
    static func compare(file name: String, format: String, python: String, generator: String, rules template: String, seed: Int,
                        reader: String, keysOnly: Bool = false, readerRules: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Int] {
        let server = try await SparkTestServer.get()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-spark-\(format)-\(getpid())-\(seed)")
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent(name).path
        try generator.write(to: scratch.appendingPathComponent("make.py"), atomically: true, encoding: .utf8)
        let made = try ChildProcess.run([python, scratch.appendingPathComponent("make.py").path, file, String(seed)])
        try #require(made.status == 0, "\(made.stderrText)", sourceLocation: sourceLocation)
        let rules = template.replacingOccurrences(of: "PATH", with: file)
        try rules.replacingOccurrences(of: "SPARK\n", with: "")
            .write(to: scratch.appendingPathComponent("local.yml"), atomically: true, encoding: .utf8)
        try rules.replacingOccurrences(of: "\"\(file)\"", with: "\"\(server.url)\"")
            .replacingOccurrences(of: "SPARK", with: "    spark: { files: \"\(file)\", format: \(format), locate: id, readWholeBelow: 0 }")
            .write(to: scratch.appendingPathComponent("spark.yml"), atomically: true, encoding: .utf8)
        let arguments = ["--max-samples", "100000", "--no-history"]
        let local = try await AuditorBinary.offPool {
            try AuditorBinary.run(["run", "local.yml", "--format", "json"] + arguments, in: scratch.path)
        }
        #expect(local.status == 1, "\(local)", sourceLocation: sourceLocation)
        let (streamed, pushed) = try await AuditorBinary.sameReport(["run", "spark.yml"] + arguments, in: scratch.path,
                                                                    sourceLocation: sourceLocation)
        #expect(AuditorBinary.input(pushed, source: "t")?["ranIn"] as? String == "spark", sourceLocation: sourceLocation)
        let report = try AuditorBinary.json(local)
        let want = digest(report, keysOnly: keysOnly).filter { id, _ in readerRules.map { !id.hasPrefix($0) } ?? true }
        for (how, spark) in [("streamed", streamed), ("pushed down", pushed)] {
            let got = digest(spark, keysOnly: keysOnly)
            #expect(Set(got.keys) == Set(want.keys), sourceLocation: sourceLocation)
            for (id, expected) in want.sorted(by: { $0.key < $1.key }) {
                // Spark orders the rows by id, then every column: two rows with one id may come
                // the other way round, so samples are compared as sets of lines.
                let mine = got[id] ?? []
                #expect(Array(mine.prefix(3)) == Array(expected.prefix(3)) && mine.dropFirst(3).sorted() == expected.dropFirst(3).sorted(),
                        "\(how), \(id): Spark \(mine.prefix(8)) vs \(reader) \(expected.prefix(8))", sourceLocation: sourceLocation)
            }
        }
        return AuditorBinary.violations(report)
    }

    /// A rules file for ``compare(file:format:python:generator:rules:seed:reader:keysOnly:readerRules:sourceLocation:)``:
    /// entity `Row` of source `t`, keyed by `id`, with `body` (its `attributes:` and `rules:`).
    static func rules(_ body: String) -> String {
        "version: 1\nsources:\n  t:\n    path: \"PATH\"\nSPARK\nentities:\n  Row:\n    source: t\n    key: [id]\n" + body
    }

    /// Each rule's counts, and its samples as key, value and message (the message of `unique`
    /// left out: it names where the first record is, which is the file's place or Spark's order),
    /// or only their keys.
    static func digest(_ report: [String: Any], keysOnly: Bool = false) -> [String: [String]] {
        var out = [String: [String]]()
        for rule in report["rules"] as? [[String: Any]] ?? [] {
            guard let id = rule["id"] as? String else { continue }
            let counts = ["evaluated", "violations", "skipped"].map { "\($0)=\((rule[$0] as? NSNumber)?.stringValue ?? "-")" }
            let samples = (rule["samples"] as? [[String: Any]] ?? []).map { sample in
                let key = sample["key"] as? String ?? "-"
                if keysOnly { return key }
                return [key, sample["value"] as? String ?? "-",
                        rule["kind"] as? String == "unique" ? "" : sample["message"] as? String ?? "-"].joined(separator: " | ")
            }
            out[id] = counts + samples
        }
        return out
    }
}
#endif
