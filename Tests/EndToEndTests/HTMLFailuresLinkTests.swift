import Foundation
import TestSupport
import Testing

/// With `--failures-out`, the HTML report links to the file (relative to the page, so the
/// folder can be moved or published as one artifact) and says how many records it holds.
@Suite("HTML report links to --failures-out")
struct HTMLFailuresLinkTests {
    /// `(href, link text)` of the page's failures-out link, if any.
    static func link(_ html: String) -> (href: String, text: String)? {
        guard let p = html.range(of: "<p class=\"failures-out\">"),
              let end = html[p.upperBound...].range(of: "</p>") else { return nil }
        let para = String(html[p.upperBound..<end.lowerBound])
        guard let h = para.range(of: "href=\""), let q = para[h.upperBound...].firstIndex(of: "\"") else { return nil }
        return (String(para[h.upperBound..<q]), para)
    }

    @Test("the link is relative to the page and percent-encoded; the counts are those written",
          arguments: [("out/report.html", "out/failures.csv", "failures.csv"),
                      ("out/html/report.html", "out/failures.jsonl", "../failures.jsonl"),
                      ("report.html", "out/f #1 100%.csv", "out/f%20%231%20100%25.csv")])
    func link(page: String, failures: String, href: String) throws {
        let scratch = try Scratch("failures-link")
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: scratch.path("out/html"), withIntermediateDirectories: true)
        try scratch.copy(fromPackage: "rules/people.yml", as: "rules/people.yml")
        let rules = Auditor.packageRoot.appendingPathComponent("rules/people.yml").path
        let run = try assertExecute(["run", rules, "--format", "json", "--report", "html:" + page,
                                     "--failures-out", failures],
                                    in: scratch.url, exitCode: 1)
        let note = try #require(run.stderrLines.first { $0.hasPrefix("auditor: wrote ") }, "\(run)")
        let html = try String(contentsOfFile: scratch.path(page), encoding: .utf8)
        let found = try #require(Self.link(html), "no failures-out link in \(page)")
        #expect(found.href == href)
        // The counts on the page are those of the file (and of the CLI's note).
        let written = try String(contentsOfFile: scratch.path(failures), encoding: .utf8)
        let records = failures.hasSuffix(".jsonl") ? written.split(separator: "\n").count : nil
        let findings = failures.hasSuffix(".csv") ? try Self.csvRows(scratch.path(failures)) - 1 : nil
        if let records { #expect(found.text.contains(" (\(records) records, "), "\(found.text)") }
        if let findings { #expect(found.text.contains(" records, \(findings) findings"), "\(found.text)") }
        let n = note.split(separator: " ")[2]
        #expect(found.text.contains(" (\(n) records, "), "\(note) vs \(found.text)")
        // The link resolves to the file from the page's folder.
        let resolved = URL(fileURLWithPath: scratch.path(page)).deletingLastPathComponent()
            .appendingPathComponent(href.removingPercentEncoding ?? href).standardizedFileURL.path
        #expect(resolved == URL(fileURLWithPath: scratch.path(failures)).standardizedFileURL.path)
    }

    /// Rows of a CSV file, counted by Python's csv module (quoted newlines are not rows).
    static func csvRows(_ path: String) throws -> Int {
        let run = try ChildProcess.run(["python3", "-c", "import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline=''))))", path])
        return try #require(Int(run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("no link without --failures-out")
    func noLink() throws {
        let run = try assertExecute(["run", "rules/people.yml", "--format", "html"], exitCode: 1)
        #expect(Self.link(run.stdoutText) == nil)
    }
}
