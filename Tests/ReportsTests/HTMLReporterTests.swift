import Auditor
import Foundation
@testable import AuditorReports
import Testing

@Suite("HTML reporter")
struct HTMLReporterTests {
    /// The text between the first `open` after `from` and the next `close`.
    static func between(_ text: String, _ open: String, _ close: String, from: String.Index? = nil) -> Substring? {
        guard let start = text.range(of: open, range: (from ?? text.startIndex)..<text.endIndex),
              let end = text.range(of: close, range: start.upperBound..<text.endIndex) else { return nil }
        return text[start.upperBound..<end.lowerBound]
    }

    /// The page with the JSON data island removed (where data is escaped differently).
    static func markup(_ page: String) -> String {
        guard let start = page.range(of: "<script type=\"application/json\" id=\"report-data\">"),
              let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex) else { return page }
        return String(page[..<start.lowerBound]) + String(page[end.upperBound...])
    }

    @Test("the CSP hashes are those of the exact inline script and style bytes", arguments: Fixture.all)
    func cspHashes(_ fixture: Fixture) throws {
        let page = HTMLReporter().render(fixture.report)
        let style = try #require(Self.between(page, "<style>", "</style>"))
        let island = try #require(page.range(of: "id=\"report-data\">"))
        let script = try #require(Self.between(page, "<script>", "</script>", from: island.upperBound))
        let csp = try #require(Self.between(page, "http-equiv=\"Content-Security-Policy\" content=\"", "\""))
        #expect(csp == "default-src 'none'; script-src 'sha256-\(Digest.sha256Base64(String(script)))'; "
                + "style-src 'sha256-\(Digest.sha256Base64(String(style)))'; img-src data:; base-uri 'none'; form-action 'none'")
        #expect(!csp.contains("frame-ancestors") && !csp.contains("report-uri") && !csp.contains("sandbox"))
        // Exactly one style element and three script elements (the data island, the phrases and the code).
        #expect(page.components(separatedBy: "<style").count == 2)
        #expect(page.components(separatedBy: "<script").count == 4)
    }

    /// Every tag in the markup. Data never contains a raw `<` (it is escaped), so these are
    /// exactly the elements the reporter wrote.
    static func tags(_ markup: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: "<[^>]*>")  // a constant pattern
        let ns = markup as NSString
        return regex.matches(in: markup, range: NSRange(location: 0, length: ns.length)).map { ns.substring(with: $0.range) }
    }

    @Test("no external resource, inline style, event handler or data-derived URL", arguments: Fixture.all)
    func selfContained(_ fixture: Fixture) {
        let tags = Self.tags(Self.markup(HTMLReporter().render(fixture.report)))
        for tag in tags {
            // The only URL in any tag is the SVG namespace, a name that is never fetched.
            #expect(!tag.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").contains("://"), "\(tag)")
            #expect(tag.range(of: #"\s(style|src|srcset|action|formaction|background|on[a-z]+)="#,
                              options: [.regularExpression, .caseInsensitive]) == nil, "\(fixture.name): \(tag.prefix(80))")
            if let href = tag.range(of: "href=\"") {
                #expect(tag[href.upperBound...].hasPrefix("#"), "\(fixture.name): link \(tag.prefix(80))")
            }
        }
        let names = Set(tags.compactMap { $0.dropFirst().split(whereSeparator: { " />".contains($0) }).first.map(String.init) })
        #expect(names.isSubset(of: ["!DOCTYPE", "html", "head", "meta", "title", "style", "body", "header", "h1", "small", "p", "ul",
                                    "li", "main", "section", "h2", "h3", "dl", "div", "dt", "dd", "table", "thead", "tbody",
                                    "tr", "th", "td", "span", "svg", "line", "a", "text", "rect", "details", "summary", "code",
                                    "input", "label", "button", "footer", "script"]), "\(names.sorted())")
    }

    @Test("hostile values are escaped in the markup")
    func hostileMarkup() {
        let markup = Self.markup(HTMLReporter().render(Fixture.xss.report))
        for value in Fixture.XSS.all where value.contains("<") || value.contains("\"") {
            #expect(!markup.contains(value), "raw \(String(reflecting: value))")
        }
        #expect(!markup.contains("<img") && !markup.contains("<base") && !markup.contains("<svg onload"))
        #expect(Self.tags(markup).filter { $0.hasPrefix("<meta") }.count == 5, "only our own five meta elements")
        #expect(markup.contains("&lt;script&gt;document.documentElement.setAttribute(&#39;data-&#39;+&#39;pwned&#39;,"))
        #expect(markup.contains(#"a\u{2028}b\u{2029}c"#), "separators made visible")
        #expect(!markup.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{1}" })
    }

    @Test("the data island is one line of JSON with < > & U+2028 U+2029 escaped", arguments: Fixture.all)
    func dataIsland(_ fixture: Fixture) throws {
        let page = HTMLReporter().render(fixture.report)
        let island = try #require(Self.between(page, "<script type=\"application/json\" id=\"report-data\">", "</script>"))
        #expect(!island.contains("<") && !island.contains(">") && !island.contains("&"))
        #expect(!island.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(!island.contains("\n"), "one line")
        // Its content, the JSON report with each finding written once: HTMLIslandTests.
        #expect(try JSONSerialization.jsonObject(with: Data(island.utf8)) is NSDictionary)
    }

    @Test("the banner says why the run passed or failed")
    func explanation() {
        let tolerated = HTMLReporter().render(Fixture.tolerated.report)
        #expect(tolerated.contains("<h1>PASSED<small>exit 0</small></h1>"))
        #expect(tolerated.contains("<li>2 rules tolerated within their thresholds</li>"))
        #expect(tolerated.contains("<li>1 warning and 1 info rules violated, below --fail-on error</li>"))
        let failing = HTMLReporter().render(Fixture.failing.report)
        #expect(failing.contains("<h1>FAILED<small>exit 1</small></h1>"))
        #expect(failing.contains("3 rules violated at severity error (--fail-on error)"))
        let xss = HTMLReporter().render(Fixture.xss.report)
        #expect(xss.contains("<h1>INCOMPLETE<small>exit 65</small></h1>"))
    }

    @Test("every violated rule has a chart bar, a rules-table row and a samples section", arguments: Fixture.all)
    func structure(_ fixture: Fixture) {
        let page = HTMLReporter().render(fixture.report)
        let violated = fixture.report.rules.filter { $0.violations > 0 }
        #expect(page.components(separatedBy: "<rect class=\"bar-").count - 1 == min(violated.count, HTMLReporter.Page.maxBars))
        #expect(page.components(separatedBy: "<details class=\"rule ").count - 1 >= violated.count)
        #expect(page.components(separatedBy: "data-record=\"").count - 1 == fixture.report.records.count)
        #expect(page.contains("@media print"))
    }
}

@Suite("HTML reporter: baseline and trends")
struct HTMLBaselineTests {
    @Test("new/existing/resolved columns, a sparkline per rule with a trend, jumped and new badges")
    func baselinePage() {
        let report = Fixture.baseline.report
        let page = HTMLReporter().render(report)
        #expect(page.contains("<th class=\"n\">New</th><th class=\"n\">Existing</th><th class=\"n\">Resolved</th><th>Trend</th>"))
        #expect(page.components(separatedBy: "<svg class=\"spark\"").count - 1 == report.rules.count)
        #expect(page.contains("<td class=\"n fresh\">5</td><td class=\"n\">7</td><td class=\"n\">1</td>"))
        #expect(page.contains("<title>Violations over the last 8 runs, oldest first: 5, 4, 5, 5, 6, 5, 4, 12 (this run); "
                              + "recent median 5; jumped</title>"))
        #expect(page.contains("<rect class=\"run now jumped\""))
        // In the rules table and in the rule's sample section.
        #expect(page.components(separatedBy: "<span class=\"badge jumped\" title=\"12 violations, recent median 5\">jumped</span>")
            .count - 1 == 2)
        let newSamples = report.rules.flatMap(\.samples).filter { $0.isNew == true }.count
        let newInRecords = report.records.flatMap(\.findings).filter { $0.isNew == true }.count
        #expect(page.components(separatedBy: "<span class=\"badge new\">new</span>").count - 1 == newSamples + newInRecords)
        #expect(page.contains("<tr class=\"row-existing\""), "csv.row.ragged@people: every finding in the baseline")
        #expect(page.contains("<span class=\"badge st-existing\">existing only</span>"))
        #expect(page.contains("<dt>New findings</dt><dd>5</dd>"))
        #expect(page.contains("baseline <span class=\"mono\">out/baseline.json</span> · --fail-on-new · history run 12"))
        #expect(page.contains("<li>1 rule violated at severity error has only findings of the baseline (--fail-on-new)</li>"))
    }

    @Test("without a baseline or history the page has none of it", arguments: Fixture.all.filter { $0.name != "baseline" })
    func plainPage(_ fixture: Fixture) {
        let page = HTMLReporter().render(fixture.report)
        for marker in ["<th class=\"n\">New</th>", "<th>Trend</th>", "<svg class=\"spark\"", "badge new", "badge jumped",
                       "st-existing\">", "New findings", "Compared with the baseline"] {
            #expect(!HTMLReporterTests.markup(page).contains(marker), "\(fixture.name): \(marker)")
        }
    }

    @Test("a hostile baseline source is escaped")
    func hostileSource() {
        var report = Fixture.baseline.report
        report.baseline?.source = "<img src=x onerror=alert(1)>\"'.json"
        report.baseline?.missingRules = ["<script>x</script>"]
        let markup = HTMLReporterTests.markup(HTMLReporter().render(report))
        #expect(!markup.contains("<img") && !markup.contains("<script>x"))
        #expect(markup.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;.json"))
        #expect(markup.contains("&lt;script&gt;x&lt;/script&gt;"))
    }
}
