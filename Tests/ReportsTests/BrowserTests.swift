import Auditor
import Foundation
@testable import AuditorReports
import Testing

/// Loads HTML reports in headless Chromium. Skipped, with a message, where Chromium is not
/// installed (`apt-get install chromium`; `.ci/run` installs it). `AUDITOR_CHROMIUM` names
/// another binary.
@Suite("HTML report in a browser")
struct BrowserTests {
    static let chromium: String? = ExternalTool.find(
        [ProcessInfo.processInfo.environment["AUDITOR_CHROMIUM"] ?? "", "chromium", "chromium-browser", "google-chrome"]
            .filter { !$0.isEmpty })

    static let skipMessage: Comment = "Chromium is not installed: the browser checks of the HTML report were skipped (apt-get install chromium, or set AUDITOR_CHROMIUM)"

    /// Loads `html` from a file and returns the DOM after scripts ran, and the browser's log.
    static func load(_ html: String, name: String) throws -> (dom: String, log: String) {
        let chromium = try #require(chromium)
        let folder = try ExternalTool.temporaryFolder("auditor-browser")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(html.utf8).write(to: file)
        let result = ExternalTool.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--dump-dom", file.absoluteString,
        ])
        #expect(result.status == 0, "chromium exited \(result.status): \(result.stderr.suffix(2000))")
        return (result.stdout, result.stderr)
    }

    @Test("hostile values run no script; our hashed script and style do run", .enabled(if: chromium != nil, skipMessage))
    func hostileValuesRunNoScript() throws {
        let (dom, log) = try Self.load(HTMLReporter().render(Fixture.xss.report), name: "xss.html")
        // Positive controls: the CSP hashes let our own script and style run.
        #expect(dom.contains("data-js=\"ready\""), "the report's script did not run (CSP hash?)")
        #expect(dom.contains("data-css=\"ok\""), "the report's style sheet was not applied (CSP hash?)")
        // No injected script ran, and nothing was even blocked (no injected element exists).
        #expect(!dom.contains("data-pwned"), "an injected script ran")
        #expect(!log.contains("Content Security Policy"), "CSP violations: \(log.suffix(2000))")
        // The injected markup is text, not elements.
        #expect(!dom.contains("<img") && !dom.contains("<base") && !dom.contains("<svg onload"))
        #expect(dom.contains("data-'+'pwned"), "the payloads are shown as text")
    }

    @Test("the marker check is live: the same payloads unescaped and without CSP do run",
          .enabled(if: chromium != nil, skipMessage))
    func markerCheckIsLive() throws {
        let payloads = [Fixture.XSS.script, Fixture.XSS.img, Fixture.XSS.svg].joined(separator: "\n")
        let (dom, _) = try Self.load("<!DOCTYPE html><html><body>\(payloads)</body></html>", name: "control.html")
        #expect(dom.contains("data-pwned"), "the control page should have set the marker")
    }

    @Test("every fixture loads with script and style allowed and no CSP violation",
          .enabled(if: chromium != nil, skipMessage), arguments: [Fixture.failing, Fixture.tolerated])
    func fixturesLoad(_ fixture: Fixture) throws {
        let (dom, log) = try Self.load(HTMLReporter().render(fixture.report), name: "\(fixture.name).html")
        #expect(dom.contains("data-js=\"ready\"") && dom.contains("data-css=\"ok\""))
        #expect(!log.contains("Content Security Policy"), "\(log.suffix(2000))")
        #expect(!dom.contains("id=\"controls\" hidden"), "the script shows the filter controls")
    }
}

extension BrowserTests {
    /// The page with a second script that types `query` into the filter box; the policy is
    /// extended with that script's hash, so the check also shows that a script the policy
    /// does not list would need exactly that.
    static func typing(_ query: String, failingOnly: Bool, into page: String) -> String {
        let driver = "(function(){var f=document.getElementById('filter');f.value=\(String(reflecting: query));"
            + "f.dispatchEvent(new Event('input'));var c=document.getElementById('failing-only');c.checked=\(failingOnly);"
            + "c.dispatchEvent(new Event('change'));})();"
        let csp = HTMLReporter.contentSecurityPolicy
        let extended = csp.replacingOccurrences(of: "script-src ", with: "script-src 'sha256-\(Digest.sha256Base64(driver))' ")
        return page.replacingOccurrences(of: csp, with: extended)
            .replacingOccurrences(of: "</body>", with: "<script>\(driver)</script>\n</body>")
    }

    @Test("the filter box hides what does not match, from the embedded JSON", .enabled(if: chromium != nil, skipMessage))
    func filter() throws {
        let page = HTMLReporter().render(Fixture.failing.report)
        let (dom, log) = try Self.load(Self.typing("carol", failingOnly: false, into: page), name: "filter.html")
        #expect(!log.contains("Content Security Policy"), "\(log.suffix(2000))")
        #expect(dom.contains("Showing 1 of 11 rules, 1 of 11 samples, 1 of 6 records"), "\(dom.suffix(3000))")
        let failing = try Self.load(Self.typing("", failingOnly: true, into: page), name: "failing.html").dom
        #expect(failing.contains("Showing 3 of 11 rules, 5 of 11 samples, 1 of 6 records"))
    }
}
