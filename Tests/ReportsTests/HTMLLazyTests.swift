import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// Tables longer than ``HTMLReporter/eagerRows``: the markup holds their first rows and a note
/// (what a reader without JavaScript and a printout see); the script renders the rest from the
/// embedded JSON exactly as the Swift side writes rows (checked row by row in Chromium).
@Suite("HTML report: large tables")
struct HTMLLazyTests {
    /// `report` with every non-empty samples list, and each entity's records, repeated (in
    /// order) to `count` entries: row `j` is a copy of row `j % original count`.
    static func enlarged(_ report: AuditReport, to count: Int) -> AuditReport {
        var report = report
        for i in report.rules.indices where !report.rules[i].samples.isEmpty {
            let samples = report.rules[i].samples
            report.rules[i].samples = (0..<count).map { samples[$0 % samples.count] }
            report.rules[i].violations = max(report.rules[i].violations, count)
        }
        var order = [String](), byEntity = [String: [RecordFindings]]()
        for record in report.records {
            if byEntity[record.entity] == nil { order.append(record.entity) }
            byEntity[record.entity, default: []].append(record)
        }
        report.records = order.flatMap { name in
            let records = byEntity[name] ?? []
            return (0..<count).map { records[$0 % records.count] }
        }
        return report
    }

    @Test("a table longer than 100 rows has its first 100 as markup, a note with exact counts, and a hidden pager",
          arguments: [Fixture.failing, Fixture.baseline])
    func markup(_ fixture: Fixture) throws {
        let report = Self.enlarged(fixture.report, to: 250)
        let page = HTMLReporter().render(report)
        let sampled = report.rules.filter { !$0.samples.isEmpty && $0.violations > 0 }
        let tables = page.components(separatedBy: "<table class=\"samples\">").dropFirst()
        #expect(tables.count == sampled.count)
        for table in tables {
            let body = try #require(table.components(separatedBy: "</table>").first)
            #expect(body.components(separatedBy: "<tr data-rule=").count - 1 == HTMLReporter.eagerRows)
        }
        let note = "<p class=\"more lazy-note\">The first 100 of 250 samples are shown; the other 150 are in the data "
            + "embedded in this page (<span class=\"mono\">script#report-data</span>): with JavaScript they appear as you scroll.</p>\n"
            + "<div class=\"pager\" hidden><span class=\"pager-status\" aria-live=\"polite\"></span> "
            + "<button type=\"button\" class=\"pager-more\">Show more</button></div>"
        #expect(page.components(separatedBy: note).count - 1 == sampled.count)
        let entities = Set(report.records.map(\.entity)).count
        #expect(page.components(separatedBy: "<tr data-record=").count - 1 == HTMLReporter.eagerRows * entities)
        #expect(page.components(separatedBy: "The first 100 of 250 records are shown").count - 1 == entities)
        // The data island still holds every row.
        let island = try HTMLIslandTests.expanded(try HTMLIslandTests.island(page))
        let rules = try #require(island["rules"] as? [[String: Any]]), records = try #require(island["records"] as? [[String: Any]])
        #expect(rules.reduce(0) { $0 + (($1["samples"] as? [Any])?.count ?? 0) } == report.rules.reduce(0) { $0 + $1.samples.count })
        #expect(records.reduce(0) { $0 + (($1["findings"] as? [Any])?.count ?? 0) } == report.records.reduce(0) { $0 + $1.findings.count })
        // A table of at most 100 rows is written whole, without note or pager.
        let small = HTMLReporter().render(Self.enlarged(fixture.report, to: HTMLReporter.eagerRows))
        #expect(!small.contains("<p class=\"more lazy-note\">") && !small.contains("<div class=\"pager\""))
    }

    /// Shows every row of every lazy table (pressing *Show more* until none is left) and writes
    /// each table's rows (`outerHTML`, less their index attributes) as JSON into `<html data-rows>`.
    static let driver = "(function(){var out=[];Array.prototype.forEach.call(document.querySelectorAll('table.samples,table.records'),function(t){"
        + "var p=t.parentNode.querySelector('.pager');var guard=0;while(p&&!p.hidden&&!p.querySelector('button').hidden&&guard++!==100)p.querySelector('button').click();"
        + "out.push(Array.prototype.map.call(t.tBodies[0].rows,function(r){return r.outerHTML.replace(/ data-(sample|record)=\"[0-9]+\"/,'');}));});"
        + "document.documentElement.setAttribute('data-rows',JSON.stringify(out));})();"

    @Test("rows rendered from the JSON are the rows the Swift side writes, hostile values included",
          .enabled(if: BrowserTests.chromium != nil, BrowserTests.skipMessage),
          arguments: [Fixture.xss, Fixture.baseline, Fixture.hostile, Fixture.failing])
    func lazyRowsMatchMarkup(_ fixture: Fixture) throws {
        let report = Self.enlarged(fixture.report, to: 250)
        let csp = HTMLReporter.contentSecurityPolicy
        let page = HTMLReporter().render(report)
            .replacingOccurrences(of: csp, with: csp.replacingOccurrences(
                of: "script-src ", with: "script-src 'sha256-\(Digest.sha256Base64(Self.driver))' "))
            .replacingOccurrences(of: "</body>", with: "<script>\(Self.driver)</script>\n</body>")
        let (dom, log) = try BrowserTests.load(page, name: "\(fixture.name)-lazy.html")
        #expect(!log.contains("Content Security Policy"), "\(log.suffix(2000))")
        #expect(!dom.contains("data-pwned"), "an injected script ran")
        let start = try #require(dom.range(of: "data-rows=\""))
        let end = try #require(dom[start.upperBound...].firstIndex(of: "\""))
        let json = dom[start.upperBound..<end].replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&nbsp;", with: "\u{A0}").replacingOccurrences(of: "&amp;", with: "&")
        let tables = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]])
        // The period of each table's copies: its rule's original samples (from the rows'
        // data-rule), or its entity's original records (records tables follow, in entity order).
        var order = [String]()
        for name in fixture.report.entities.map(\.name) + fixture.report.records.map(\.entity) where !order.contains(name) {
            order.append(name)
        }
        var entityPeriods = order.map { name in fixture.report.records.filter { $0.entity == name }.count }.filter { $0 > 0 }
        let periods = tables.map { rows -> Int in
            guard let first = rows.first else { return 0 }
            if let r = first.range(of: "data-rule=\""), let q = first[r.upperBound...].firstIndex(of: "\""),
               let i = Int(first[r.upperBound..<q]) {
                return fixture.report.rules[i].samples.count
            }
            return entityPeriods.isEmpty ? 0 : entityPeriods.removeFirst()
        }
        #expect(entityPeriods.isEmpty, "every records table seen")
        #expect(tables.count == periods.count, "\(tables.map(\.count)) vs \(periods)")
        for (t, (rows, period)) in zip(tables, periods).enumerated() where period > 0 {
            #expect(rows.count == 250, "table \(t): \(rows.count) rows")
            for j in HTMLReporter.eagerRows..<rows.count {
                #expect(rows[j] == rows[j % period], "table \(t), row \(j) (JSON) vs row \(j % period) (markup)")
                if rows[j] != rows[j % period] { break }
            }
        }
    }
}
