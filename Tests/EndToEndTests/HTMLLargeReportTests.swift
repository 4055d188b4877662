import Foundation
import TestSupport
import Testing

/// A 100,000-finding HTML report (20,000 rows × 5 failing rules, `--max-samples 100000`) in
/// headless Chromium: tables hold only their first rows at load, more rows appear as a pager
/// scrolls into view or is pressed, and the filter, which searches the embedded JSON, finds
/// exactly the rows it should, with exact counts. The speed of it is measured by
/// `Benchmarks/html.py`, not here. Skipped where Chromium is not installed.
@Suite("HTML report with 100,000 findings")
struct HTMLLargeReportTests {
    static let chromium: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let names = [ProcessInfo.processInfo.environment["AUDITOR_CHROMIUM"] ?? "", "chromium", "chromium-browser", "google-chrome"]
        for name in names where !name.isEmpty {
            if name.hasPrefix("/") { if FileManager.default.isExecutableFile(atPath: name) { return name } else { continue } }
            for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    static let rows = 20_000

    static let rules = """
        version: 1
        sources:
          items:
            path: items.csv
            csv: { header: true }
        entities:
          Item:
            source: items
            key: [id]
            idPrefix: item
            attributes:
              id:      { type: integer, required: true }
              code:    { type: string, pattern: "[A-Z]{3}" }
              qty:     { type: integer, min: 0 }
              country: { type: string, enum: [US, GB, DE] }
              email:   { type: string, pattern: "[a-z]+@[a-z]+\\\\.com" }
              name:    { type: string, maxLength: 5 }

        """

    /// Every row fails the five rules on `code`, `qty`, `country`, `email` and `name`.
    static var csv: String {
        var out = "id,code,qty,country,email,name\n"
        for i in 1...rows { out += "\(i),c\(i),-\(i),Z\(i % 7),user\(i)-at-example,name number \(i)\n" }
        return out
    }

    /// Runs in the page once it has loaded: checks the first rows, scrolls the first samples
    /// pager into view, presses the records pager's button, filters, and writes what it saw
    /// as JSON into `<html data-result>`.
    static let driver = """
        window.addEventListener("load", function () {
          var r = document.documentElement, out = {};
          function keys(table) { return Array.prototype.map.call(table.tBodies[0].rows, function (tr) { return tr.querySelector("td.key").textContent; }); }
          function status(table) { var p = table.nextElementSibling; while (p && !p.classList.contains("pager")) p = p.nextElementSibling; return p ? p.querySelector(".pager-status").textContent : null; }
          var samples = document.querySelectorAll("table.samples"), records = document.querySelector("table.records");
          out.initialSampleRows = Array.prototype.map.call(samples, function (t) { return t.tBodies[0].rows.length; });
          out.initialRecordRows = records.tBodies[0].rows.length;
          out.trs = document.querySelectorAll("tr").length;
          out.notesHidden = Array.prototype.every.call(document.querySelectorAll(".lazy-note"), function (p) { return p.hidden; });
          var pager = samples[0].nextElementSibling.nextElementSibling;
          pager.scrollIntoView();
          // The observer answers in a later frame's rendering steps, and a loaded machine may
          // take a while to render one: wait for the rows (at most 60 s) instead of a fixed delay.
          var start = Date.now();
          (function poll() {
            if (samples[0].tBodies[0].rows.length < 300 && Date.now() - start < 60000) { setTimeout(poll, 50); return; }
            out.waited = Date.now() - start;
            out.scrolledKeys = keys(samples[0]);
            out.scrolledStatus = status(samples[0]);
            var before = records.tBodies[0].rows.length;
            var button = records.nextElementSibling.nextElementSibling.querySelector("button");
            button.click();
            out.clickedFrom = before;
            out.clickedKeys = keys(records);
            out.clickedStatus = status(records);
            var f = document.getElementById("filter");
            f.value = "C1234"; f.dispatchEvent(new Event("input"));
            out.filterStatus = document.getElementById("filter-status").textContent;
            out.filterSampleKeys = Array.prototype.map.call(samples, function (t) { return t.closest("details").hidden ? null : keys(t); });
            out.filterRecordKeys = keys(records);
            out.filterRecordStatus = status(records);
            f.value = "item.qty.min"; f.dispatchEvent(new Event("input"));
            out.ruleStatus = document.getElementById("filter-status").textContent;
            out.ruleRecordRows = records.tBodies[0].rows.length;
            f.value = ""; f.dispatchEvent(new Event("input"));
            out.clearedRecordRows = records.tBodies[0].rows.length;
            out.clearedStatus = status(records);
            r.setAttribute("data-result", JSON.stringify(out));
          })();
        });
        """

    /// The base64 SHA-256 of `text`, from Python's hashlib (a reference we did not write).
    static func sha256(_ text: String) throws -> String {
        let run = try ChildProcess.run(["python3", "-c",
            "import base64,hashlib,sys; print(base64.b64encode(hashlib.sha256(sys.stdin.buffer.read()).digest()).decode())"],
            input: Data(text.utf8))
        return run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Loads `page` in headless Chromium, in real time, and returns the driver's result.
    ///
    /// Not `--dump-dom` with `--virtual-time-budget`: virtual time can pass without a rendered
    /// frame, and the pager's IntersectionObserver then never answers (seen in CI), so
    /// `scripts/chromium-wait.py` drives the browser over the DevTools protocol and waits for
    /// the driver's `data-result`.
    static func load(_ page: URL, in scratch: Scratch) throws -> [String: Any] {
        let chromium = try #require(chromium)
        let python = try #require(GeneratedData.python3, "python3 drives Chromium")
        let run = try ChildProcess.run([python.path, Auditor.packageRoot.appendingPathComponent("scripts/chromium-wait.py").path,
                                        chromium, page.absoluteString, "--timeout", "240", "--profile", scratch.path("profile")],
                                       timeout: 300)
        try #require(run.status == 0, "the driver did not finish: \(run.stderrText)")
        let json = run.stdout
        return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    @Test("lazy rows appear on scroll and paging; the filter finds exactly the matching rows; counts are exact",
          .enabled(if: chromium != nil, "Chromium is not installed (apt-get install chromium, or set AUDITOR_CHROMIUM)"),
          .timeLimit(.minutes(10)))
    func largePage() throws {
        let scratch = try Scratch("html-large")
        defer { scratch.remove() }
        try scratch.write("rules.yml", Self.rules)
        try scratch.write("items.csv", Self.csv)
        try assertExecute(["run", "rules.yml", "--format", "html", "--max-samples", "100000", "-o", "page.html"],
                          in: scratch.url, exitCode: 1, timeout: 600)
        var page = try String(contentsOfFile: scratch.path("page.html"), encoding: .utf8)
        // Far fewer table rows than findings as markup; each finding written once in the data
        // (55 bytes a finding on 2026-11-27; 705 when each was a JSON object in its rule's
        // samples and again in its record).
        #expect(page.components(separatedBy: "<tr data-").count - 1 <= 6 * 100 + 20)
        #expect(page.utf8.count < 100 * 5 * Self.rows, "\(page.utf8.count / (5 * Self.rows)) bytes a finding")
        // Row 12345 is past the markup's rows: its email value is in the data once (its message,
        // sample and record refer to it), its location text not at all (derived from its line).
        #expect(page.components(separatedBy: "user12345-at-example").count - 1 == 1)
        #expect(!page.contains("items.csv:12346"))
        let hash = try Self.sha256(Self.driver)
        page = page.replacingOccurrences(of: "script-src ", with: "script-src 'sha256-\(hash)' ")
            .replacingOccurrences(of: "</body>", with: "<script>\(Self.driver)</script>\n</body>")
        let driven = try scratch.write("driven.html", page)
        let result = try Self.load(driven, in: scratch)

        // At load: 100 rows in each of the five samples tables and in the records table.
        #expect(result["initialSampleRows"] as? [Int] == [100, 100, 100, 100, 100])
        #expect(result["initialRecordRows"] as? Int == 100)
        #expect(result["notesHidden"] as? Bool == true, "the no-JS notes give way to the pagers")
        // Scrolling the first pager into view rendered the next rows, in order.
        let scrolled = try #require(result["scrolledKeys"] as? [String])
        #expect(scrolled.count >= 300 && scrolled.count < Self.rows, "\(scrolled.count) rows after scrolling and \(result["waited"] ?? "no") ms")
        #expect(scrolled == (1...scrolled.count).map { "id=\($0)" }, "in input order, key id=N")
        #expect(result["scrolledStatus"] as? String == "Showing \(grouped(scrolled.count)) of 20,000 samples")
        // Show more: 200 more records, the next ones.
        let from = try #require(result["clickedFrom"] as? Int)
        let clicked = try #require(result["clickedKeys"] as? [String])
        #expect(clicked == (1...(from + 200)).map { "id=\($0)" })
        #expect(result["clickedStatus"] as? String == "Showing \(grouped(from + 200)) of 20,000 records")
        // The filter (case-insensitive) searches all 100,000 findings: 'c1234' is the code of
        // rows 1234 and 12340–12349 only.
        let expected = (1...Self.rows).filter { "c\($0)".contains("c1234") }.map { "id=\($0)" }
        #expect(expected.count == 11)
        #expect(result["filterStatus"] as? String
                == "Showing 1 of \(ruleCount(result)) rules, 11 of 100,000 samples, 11 of 20,000 records")
        let sampleKeys = try #require(result["filterSampleKeys"] as? [Any])
        let shown = sampleKeys.compactMap { $0 as? [String] }
        #expect(shown == [expected], "only the code rule's section is shown, with exactly the matching rows")
        #expect(result["filterRecordKeys"] as? [String] == expected)
        #expect(result["filterRecordStatus"] as? String == "Showing 11 of 11 matching records")
        // A rule id matches every finding of that rule, and every record (each has one).
        #expect(result["ruleStatus"] as? String
                == "Showing 1 of \(ruleCount(result)) rules, 20,000 of 100,000 samples, 20,000 of 20,000 records")
        #expect(result["ruleRecordRows"] as? Int == 100, "a filtered lazy table renders its first page only")
        #expect(result["clearedRecordRows"] as? Int == 100)
        #expect(result["clearedStatus"] as? String == "Showing 100 of 20,000 records")
    }

    /// The rules total the filter status reports (the rules table's rows; not under test here).
    func ruleCount(_ result: [String: Any]) -> String {
        guard let status = result["filterStatus"] as? String, let of = status.range(of: " of "),
              let end = status.range(of: " rules", range: of.upperBound..<status.endIndex) else { return "?" }
        return String(status[of.upperBound..<end.lowerBound])
    }

    func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }
}
