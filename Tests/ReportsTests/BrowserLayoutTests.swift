import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// The HTML report at a phone's width (390 px) and a desktop's (1400 px) in headless Chromium:
/// the page never scrolls sideways, and samples stay readable (each value and message gets a
/// line of its own, at least 250 px wide, in a font of at least 12 px). Screenshots of both
/// widths are written to `.build/screenshots/` for a person to look at.
@Suite("HTML report layout in a browser")
struct BrowserLayoutTests {
    /// A script that measures the laid-out page and writes the results as attributes of `<html>`.
    static let measure = "(function(){var r=document.documentElement;"
        + "r.setAttribute('data-overflow',String(r.scrollWidth-r.clientWidth));"
        + "var wide=Array.prototype.slice.call(document.querySelectorAll('body *')).filter(function(e){return e.getBoundingClientRect().right>r.clientWidth+1&&!e.closest('table.rules,table.inputs');});"
        + "r.setAttribute('data-wide',wide.slice(0,6).map(function(e){return e.tagName+'.'+e.className+'@'+Math.round(e.getBoundingClientRect().right);}).join(' '));"
        + "var cells=Array.prototype.slice.call(document.querySelectorAll('table.samples td.value,table.samples td.msg,table.records td')).filter(function(c){return c.getClientRects().length>0;});"
        + "var w=cells.map(function(c){return Math.floor(c.getBoundingClientRect().width);});"
        + "var f=cells.map(function(c){return parseFloat(getComputedStyle(c).fontSize);});"
        + "r.setAttribute('data-cells',String(cells.length));"
        + "r.setAttribute('data-narrowest',String(w.length?Math.min.apply(null,w):0));"
        + "r.setAttribute('data-smallest-font',String(f.length?Math.min.apply(null,f):0));})();"

    /// The page with ``measure`` added (and allowed by the policy).
    static func measured(_ page: String) -> String {
        let csp = HTMLReporter.contentSecurityPolicy
        let extended = csp.replacingOccurrences(of: "script-src ", with: "script-src 'sha256-\(Digest.sha256Base64(measure))' ")
        return page.replacingOccurrences(of: csp, with: extended)
            .replacingOccurrences(of: "</body>", with: "<script>\(measure)</script>\n</body>")
    }

    /// `--dump-dom` at `width`, and a screenshot written to `screenshot`.
    static func layout(_ html: String, name: String, width: Int, screenshot: URL, wide: inout String) throws -> [String: Int] {
        let chromium = try #require(BrowserTests.chromium)
        let folder = try ExternalTool.temporaryFolder("auditor-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(html.utf8).write(to: file)
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                      "--hide-scrollbars", "--user-data-dir=\(folder.appendingPathComponent("profile").path)"]
        let dom = ExternalTool.run(chromium, common + ["--window-size=\(width),1200", "--virtual-time-budget=3000",
                                                      "--dump-dom", file.absoluteString])
        #expect(dom.status == 0, "\(dom.stderr.suffix(1000))")
        let shot = ExternalTool.run(chromium, common + ["--window-size=\(width),2400", "--screenshot=\(screenshot.path)",
                                                       file.absoluteString])
        #expect(shot.status == 0, "\(shot.stderr.suffix(1000))")
        var values = [String: Int]()
        for key in ["overflow", "cells", "narrowest", "smallest-font"] {
            guard let range = dom.stdout.range(of: "data-\(key)=\""),
                  let end = dom.stdout[range.upperBound...].firstIndex(of: "\"") else { continue }
            values[key] = Int(Double(dom.stdout[range.upperBound..<end]) ?? -1)
        }
        if let range = dom.stdout.range(of: "data-wide=\""), let end = dom.stdout[range.upperBound...].firstIndex(of: "\"") {
            wide = String(dom.stdout[range.upperBound..<end])
        }
        return values
    }

    /// The width in pixels of a PNG file (its IHDR chunk), or nil.
    static func pngWidth(_ url: URL) -> Int? {
        guard let data = try? Data(contentsOf: url), data.count > 24, data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        return data[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }

    /// `<package>/.build/screenshots`: Golden/ → ReportsTests/ → Tests/ → the package.
    static let screenshots = Golden.sourceFolder().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/screenshots")

    @Test("no sideways scrolling, readable samples, at 390 and 1400 px", .enabled(if: BrowserTests.chromium != nil, BrowserTests.skipMessage),
          arguments: [Fixture.failing, Fixture.hostile, Fixture.baseline, Fixture.xss])
    func widths(_ fixture: Fixture) throws {
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        let page = Self.measured(HTMLReporter().render(fixture.report))
        for width in [390, 1400] {
            let shot = Self.screenshots.appendingPathComponent("\(fixture.name)-\(width).png")
            try? FileManager.default.removeItem(at: shot)
            var wide = ""
            let m = try Self.layout(page, name: "\(fixture.name).html", width: width, screenshot: shot, wide: &wide)
            #expect(m["overflow"] == 0, "\(fixture.name) at \(width) px scrolls sideways by \(m["overflow"] ?? -1) px: \(wide)")
            #expect((m["cells"] ?? 0) > 0, "\(fixture.name): no sample cells measured \(m)")
            #expect((m["narrowest"] ?? 0) >= (width == 390 ? 250 : 60), "\(fixture.name) at \(width) px: \(m)")
            #expect((m["smallest-font"] ?? 0) >= 12, "\(fixture.name) at \(width) px: \(m)")
            #expect(Self.pngWidth(shot) == width, "no \(width) px screenshot at \(shot.path)")
        }
    }
}
